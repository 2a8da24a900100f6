import { describe, expect, test } from 'bun:test';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dir, '..', '..');

describe('the repository’s top level', () => {
  test('holds no scratch scripts: probes live under bench/, code under src/ and packages/', () => {
    const scripts = readdirSync(ROOT).filter((name) => /\.(c|m)?(t|j)sx?$/.test(name));
    expect(scripts).toEqual([]);
  });
});
