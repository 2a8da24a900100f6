/**
 * Builds @licensing/client from src/client (where the CLI and the tests import it): one ESM file,
 * dist/index.js, with no runtime dependency, and tsc's declarations under dist/types.
 * Run from anywhere: `bun run build:client` at the root, `bun run build` here.
 */
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const HERE = import.meta.dir;
const ROOT = join(HERE, '..', '..');
const DIST = join(HERE, 'dist');

await rm(DIST, { recursive: true, force: true });

// target 'node' leaves `import('node:fs/promises')` and friends as they are: the library only
// imports them dynamically, where a Node-compatible runtime exists, so the file loads in browsers too.
const built = await Bun.build({ entrypoints: [join(ROOT, 'src/client/index.ts')], target: 'node', format: 'esm', outdir: DIST, naming: 'index.js' });
if (!built.success) fail(`bundle failed:\n${built.logs.join('\n')}`);

const tsc = Bun.spawnSync([join(ROOT, 'node_modules', '.bin', 'tsc'), '-p', join(HERE, 'tsconfig.json')], { cwd: HERE, stdout: 'pipe', stderr: 'pipe' });
if (tsc.exitCode !== 0) fail(`tsc failed:\n${tsc.stdout}${tsc.stderr}`);
await jsSpecifiers(join(DIST, 'types'));
console.log(`built ${DIST}: index.js and types/`);

/**
 * The sources import each other as `./x.ts`; tsc keeps those specifiers in declarations. Every
 * TypeScript resolving this package finds `./x.js` → `./x.d.ts`, so that is what is shipped.
 */
async function jsSpecifiers(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { recursive: true })) {
    if (!entry.endsWith('.d.ts')) continue;
    const file = join(dir, entry);
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace(/(\bfrom\s+|\bimport\s*\(\s*)(['"])(\.{1,2}\/[^'"]+)\.ts\2/g, '$1$2$3.js$2'));
  }
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}
