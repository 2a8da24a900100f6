import { describe, expect, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const ROOT = join(import.meta.dir, '..', '..');
const ENTRY = join(ROOT, 'src', 'client', 'index.ts');
const ALLOWED_FOLDERS = ['src/client/', 'src/domain/'];

const STATIC = /\b(?:import|export)\s+(?:type\s+)?[^'"`;=()]*?\bfrom\s*['"]([^'"]+)['"]/g;
const SIDE_EFFECT = /\bimport\s*['"]([^'"]+)['"]/g;
const DYNAMIC = /\bimport\s*\(\s*['"`]([^'"`]+)['"`]\s*\)/g;
const REQUIRE = /\brequire\s*\(\s*['"`]([^'"`]+)['"`]\s*\)/g;
const TYPE_QUERY = /\btypeof\s+import\s*\(\s*['"`]([^'"`]+)['"`]\s*\)/g;

interface Edge {
  from: string;
  specifier: string;
  kind: 'static' | 'dynamic';
}

const stripComments = (source: string) => source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

function importsOf(file: string, source: string): Edge[] {
  // `typeof import('node:fs/promises')` is a type, erased at build time: not an import.
  const code = stripComments(source).replace(TYPE_QUERY, '');
  const edges: Edge[] = [];
  for (const pattern of [STATIC, SIDE_EFFECT, REQUIRE]) for (const m of code.matchAll(pattern)) edges.push({ from: file, specifier: m[1]!, kind: 'static' });
  for (const m of code.matchAll(DYNAMIC)) edges.push({ from: file, specifier: m[1]!, kind: 'dynamic' });
  return edges;
}

/** Every file reachable from the entry through relative imports, and every import they make. */
function walk(entry: string): { files: string[]; edges: Edge[] } {
  const seen = new Set<string>();
  const edges: Edge[] = [];
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const edge of importsOf(file, readFileSync(file, 'utf8'))) {
      edges.push(edge);
      if (edge.specifier.startsWith('.')) {
        const target = resolve(dirname(file), edge.specifier);
        if (existsSync(target)) visit(target);
      }
    }
  };
  visit(entry);
  return { files: [...seen].map((f) => relative(ROOT, f).split(sep).join('/')), edges };
}

/** What may not be in the client's graph: anything outside src/client and src/domain, Bun, packages, static Node builtins. */
function problems(edges: Edge[]): string[] {
  return edges.flatMap(({ from, specifier, kind }) => {
    const where = `${relative(ROOT, from)} imports '${specifier}'`;
    if (specifier === 'bun' || specifier.startsWith('bun:')) return [`${where}: Bun`];
    if (specifier.startsWith('node:')) return kind === 'dynamic' ? [] : [`${where}: a Node builtin, statically (a browser cannot load it)`];
    if (!specifier.startsWith('.')) return [`${where}: a package or bare builtin`];
    const target = relative(ROOT, resolve(dirname(from), specifier)).split(sep).join('/');
    return ALLOWED_FOLDERS.some((folder) => target.startsWith(folder)) ? [] : [`${where}: outside src/client and src/domain`];
  });
}

describe('the client library carries no server code', () => {
  test('everything src/client/index.ts reaches is in src/client or src/domain; Node builtins only through dynamic import', () => {
    const { files, edges } = walk(ENTRY);

    const found = problems(edges);

    if (found.length > 0) throw new Error(`The client's import graph is broken:\n${found.join('\n')}`);
    expect(files).toContain('src/domain/license-key.ts');
    expect(files).toContain('src/client/offline.ts');
    expect(edges.filter((e) => e.specifier.startsWith('node:')).every((e) => relative(ROOT, e.from) === join('src', 'client', 'platform.ts'))).toBe(true);
  });

  test('the walk is not vacuous: it reaches every client source file', () => {
    const all = [...new Bun.Glob('*.ts').scanSync({ cwd: join(ROOT, 'src', 'client') })].map((f) => `src/client/${f}`);

    expect(walk(ENTRY).files.sort()).toEqual(expect.arrayContaining(all.sort()));
  });

  test('the checker catches server code, Bun, packages and static Node builtins', () => {
    const from = join(ROOT, 'src', 'client', 'sample.ts');
    const sample = [
      `import { validateLicense } from '../app/licenses/validate-license.ts';`,
      `import { NodeSigner } from '../adapters/crypto/node-signer.ts';`,
      `import { Elysia } from 'elysia';`,
      `import { Database } from 'bun:sqlite';`,
      `const { $ } = await import('bun');`,
      `import { readFile } from 'node:fs/promises';`,
      `const ok = await import('node:os');`,
      `import { parseLicenseKey } from '../domain/license-key.ts';`,
    ].join('\n');

    const found = problems(importsOf(from, sample));

    expect(found.map((p) => p.split(`'`)[1])).toEqual([
      '../app/licenses/validate-license.ts',
      '../adapters/crypto/node-signer.ts',
      'elysia',
      'bun:sqlite',
      'node:fs/promises',
      'bun',
    ]);
  });
});
