import { afterAll } from 'bun:test';

/**
 * Work to do once every test file of this `bun test` process has run (dropping the PostgreSQL
 * schemas it made). Preloaded by bunfig.toml, so its afterAll runs once, after the last file.
 */
const tasks: (() => Promise<void>)[] = [];

export function atProcessEnd(task: () => Promise<void>): void {
  tasks.push(task);
}

afterAll(async () => {
  for (const task of tasks.splice(0).reverse()) await task();
});
