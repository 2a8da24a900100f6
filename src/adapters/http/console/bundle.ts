/**
 * The seller console (src/console), bundled with Bun.build into one minified script and one
 * stylesheet, each named by its content's hash. Nothing is committed:
 * `consoleBundle` is a Bun macro (imported `with { type: 'macro' }` by routes/console-app.ts), so
 * Bun runs it when it transpiles that file, under `bun run`, `bun test` and `bun build --compile`
 * alike, and inlines the two assets as constants. A start from source therefore serves the
 * console as its source is now, and the single binary carries it like any other code. Bun does
 * not keep a file in its transpiler cache once a macro ran in it, so an edit is never served stale.
 * Each bundle is kept in node_modules/.cache/console/ under the digest of what it is made of, so
 * the many processes a test run starts from source bundle the console once, not once each.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dir, '../../../..');
const CONSOLE_SOURCE = join(ROOT, 'src/console');
const CACHE = join(ROOT, 'node_modules/.cache/console');

export interface ConsoleAsset {
  name: string;
  type: string;
  body: string;
}

export interface ConsoleBundle {
  script: ConsoleAsset;
  style: ConsoleAsset;
}

/** Bundles src/console now. */
export async function bundleConsole(): Promise<ConsoleBundle> {
  const result = await Bun.build({
    entrypoints: [join(CONSOLE_SOURCE, 'main.tsx')],
    target: 'browser',
    format: 'esm',
    minify: true,
    sourcemap: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  if (!result.success) throw new AggregateError(result.logs, 'the console did not build');
  const js = result.outputs.filter((o) => o.path.endsWith('.js'));
  const css = result.outputs.filter((o) => o.path.endsWith('.css'));
  if (js.length !== 1 || css.length !== 1) throw new Error(`expected one script and one stylesheet, got ${result.outputs.map((o) => o.path).join(', ')}`);
  const named = async (output: Bun.BuildArtifact, ext: string, type: string): Promise<ConsoleAsset> => {
    const body = await output.text();
    const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
    return { name: `console-${hash}.${ext}`, type, body };
  };
  return {
    script: await named(js[0]!, 'js', 'text/javascript; charset=utf-8'),
    style: await named(css[0]!, 'css', 'text/css; charset=utf-8'),
  };
}

/**
 * The macro. Bun.build may not run inside a macro (the transpiler waiting for the macro would wait
 * for itself), so this runs this same file as a child process, which bundles and prints the JSON.
 */
export function consoleBundle(): ConsoleBundle {
  const kept = join(CACHE, `${sourceDigest()}.json`);
  if (existsSync(kept)) return JSON.parse(readFileSync(kept, 'utf8'));
  const child = Bun.spawnSync([process.execPath, import.meta.path], { stderr: 'pipe' });
  if (child.exitCode !== 0) throw new Error(`the seller console did not build: ${child.stderr.toString()}`);
  const text = child.stdout.toString();
  keep(kept, text);
  return JSON.parse(text);
}

/**
 * What the bundle is made of: every file under src/console (it imports nothing else of ours: the
 * architecture test holds it to that) and the lockfile that pins the packages it imports.
 */
function sourceDigest(): string {
  const digest = createHash('sha256');
  for (const file of [...new Bun.Glob('**/*').scanSync({ cwd: CONSOLE_SOURCE })].sort()) {
    digest.update(`${file}\0`).update(readFileSync(join(CONSOLE_SOURCE, file))).update('\0');
  }
  return digest.update(readFileSync(join(ROOT, 'bun.lock'))).digest('hex');
}

/** Written whole or not at all (processes started together may bundle at once); a cache that cannot be written is only slower. */
function keep(path: string, text: string): void {
  try {
    mkdirSync(CACHE, { recursive: true });
    const partial = `${path}.${process.pid}.partial`;
    writeFileSync(partial, text);
    renameSync(partial, path);
  } catch {
    // A read-only checkout: every start bundles afresh.
  }
}

if (import.meta.main) process.stdout.write(JSON.stringify(await bundleConsole()));
