import { CACHE_FILE, type CacheStore } from './cache.ts';
import type { NodeModules } from './platform.ts';

/**
 * One JSON file, owner-only (0600 in a 0700 folder), replaced atomically: the new content goes
 * to a temporary file in the same folder, then a rename swaps it in, so a reader (or a crash)
 * sees the old record or the new one, never half of one.
 */
export class FileStore implements CacheStore {
  private readonly file: string;

  constructor(
    private readonly node: NodeModules,
    private readonly dir: string,
    name = CACHE_FILE,
  ) {
    this.file = node.path.join(dir, name);
  }

  get path(): string {
    return this.file;
  }

  async read(): Promise<string | null> {
    try {
      return await this.node.fs.readFile(this.file, 'utf8');
    } catch {
      return null;
    }
  }

  async write(text: string): Promise<void> {
    const { fs } = this.node;
    await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const temp = `${this.file}.${randomSuffix()}.tmp`;
    try {
      // 'wx' refuses to follow or reuse anything already at the temporary path.
      await fs.writeFile(temp, text, { encoding: 'utf8', mode: 0o600, flag: 'wx' });
      await fs.rename(temp, this.file);
    } catch (error) {
      await fs.rm(temp, { force: true }).catch(() => {});
      throw error;
    }
  }

  async remove(): Promise<void> {
    await this.node.fs.rm(this.file, { force: true });
  }
}

function randomSuffix(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
