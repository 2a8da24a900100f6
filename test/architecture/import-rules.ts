import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

/** The inner layers and what each may import (folders under src/). Everything else is an outer layer. */
export const ALLOWED: Record<string, readonly string[]> = {
  domain: ['domain'],
  ports: ['domain', 'ports'],
  app: ['domain', 'ports', 'app'],
};

/**
 * src/console is the seller console's browser code: it reaches the service over HTTP only, so it
 * imports nothing of the server (no domain, ports, app or adapter), only itself and these packages.
 */
export const CONSOLE_PACKAGES: readonly string[] = ['preact', 'uplot', '@simplewebauthn/browser'];

function layerRules(layer: string): readonly string[] | undefined {
  return layer === 'console' ? ['console'] : ALLOWED[layer];
}

export interface Violation {
  file: string;
  specifier: string;
  why: string;
}

const STATIC = /\b(?:import|export)\s+(?:type\s+)?[^'"`;=()]*?\bfrom\s*['"]([^'"]+)['"]/g;
const SIDE_EFFECT = /\bimport\s*['"]([^'"]+)['"]/g;
const DYNAMIC = /\bimport\s*\(\s*['"`]([^'"`]+)['"`]\s*\)/g;
const REQUIRE = /\brequire\s*\(\s*['"`]([^'"`]+)['"`]\s*\)/g;
const NON_LITERAL_DYNAMIC = /\bimport\s*\(\s*(?!['"`])/;

/** Comments may mention packages; code may not. */
function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

export function importSpecifiers(source: string): string[] {
  const code = stripComments(source);
  const found: string[] = [];
  for (const pattern of [STATIC, SIDE_EFFECT, DYNAMIC, REQUIRE]) {
    for (const match of code.matchAll(pattern)) found.push(match[1]!);
  }
  return found;
}

/** `file` is a path relative to the project root, e.g. `src/app/licenses/grant-license.ts`. */
export function importViolations(root: string, file: string, source: string): Violation[] {
  const src = resolve(root, 'src');
  const layer = relative(src, resolve(root, file)).split(sep)[0]!;
  const allowed = layerRules(layer);
  if (!allowed) return [];
  const violations: Violation[] = [];
  for (const specifier of importSpecifiers(source)) {
    const why = problemWith(src, resolve(root, file), layer, allowed, specifier);
    if (why) violations.push({ file, specifier, why });
  }
  if (NON_LITERAL_DYNAMIC.test(stripComments(source))) {
    violations.push({ file, specifier: 'import(<expression>)', why: 'a dynamic import whose target cannot be checked' });
  }
  return violations;
}

function problemWith(src: string, absFile: string, layer: string, allowed: readonly string[], specifier: string): string | null {
  if (!specifier.startsWith('.') && !isAbsolute(specifier)) {
    if (layer === 'console' && CONSOLE_PACKAGES.some((name) => specifier === name || specifier.startsWith(`${name}/`))) return null;
    const kind = specifier === 'bun' || specifier.startsWith('bun:') ? 'Bun' : specifier.startsWith('node:') ? 'a Node builtin' : 'a package';
    return `${layer} may not import ${kind} ("${specifier}")`;
  }
  const target = relative(src, resolve(dirname(absFile), specifier));
  const targetLayer = target.startsWith('..') || isAbsolute(target) ? '(outside src)' : target.split(sep)[0]!;
  if (targetLayer === 'adapters') return `${layer} may not import an adapter (src/${target})`;
  if (!allowed.includes(targetLayer)) return `${layer} may import only ${allowed.join(', ')}, not src/${target}`;
  return null;
}

export function describe(violations: Violation[]): string {
  return violations.map((v) => `${v.file}: imports '${v.specifier}': ${v.why}`).join('\n');
}
