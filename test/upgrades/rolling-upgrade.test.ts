import { SQL } from 'bun';
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migratePostgres, POSTGRES_MIGRATIONS } from '../../src/adapters/postgres/postgres-migrate.ts';
import { client } from '../crash/client.ts';
import { TEST_POSTGRES_URL } from '../support/postgres-url.ts';
import { freshPostgresSchema, randomMasterKey, spawnService, startCluster, type Cluster } from '../support/server-process.ts';

/**
 * Two instances of this release serve one PostgreSQL schema under a write load; a newer release
 * (this one's migrations and one more) migrates it. The newer one announces its migration and
 * waits; both old instances see it, stop serving and exit 1 before the wait ends, so no write of
 * theirs lands after the migration began. Started again, an old instance refuses to start.
 */
const CHECK_SECONDS = 1;
const DRAIN_MS = 6_000;

/** This release's migrations folder plus one that adds a column: what the next release ships. */
function newerRelease(dir: string): string {
  const folder = join(dir, 'migrations');
  cpSync(POSTGRES_MIGRATIONS, folder, { recursive: true, filter: (source) => !source.endsWith('.ts') });
  const journalPath = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { idx: number; version: string; when: number; tag: string; breakpoints: boolean }[] };
  const last = journal.entries.at(-1)!;
  journal.entries.push({ idx: last.idx + 1, version: last.version, when: last.when + 86_400_000, tag: '9999_next_release', breakpoints: true });
  writeFileSync(journalPath, JSON.stringify(journal));
  writeFileSync(join(folder, '9999_next_release.sql'), 'ALTER TABLE "licenses" ADD COLUMN "next_release_probe" integer;');
  return folder;
}

describe('a rolling upgrade: a newer release migrates the schema under running instances', () => {
  const schema = freshPostgresSchema();
  const dir = mkdtempSync(join(tmpdir(), 'licensing-rolling-'));
  const env = { DATABASE_URL: schema.databaseUrl, MASTER_KEY: randomMasterKey(), SCHEMA_CHECK_SECONDS: String(CHECK_SECONDS) };
  let cluster: Cluster;

  beforeAll(async () => {
    cluster = await startCluster(2, env);
  });
  afterAll(async () => {
    await cluster.stop('SIGKILL');
    await schema.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the old instances stop before the migration begins, and an old one restarted refuses to start', async () => {
    const exitedAt = cluster.instances.map((instance) => instance.exited.then((code) => ({ code, at: Date.now() })));
    // Writes go on against both old instances until neither answers.
    const acked: number[] = [];
    let loading = true;
    const load = Promise.all(cluster.instances.map(async (instance) => {
      const call = client(instance.url);
      for (let i = 0; loading && instance.proc.exitCode === null; i++) {
        try {
          const reply = await call('POST', '/developers/signup', { body: { email: `w-${instance.url.slice(-5)}-${i}@example.com`, name: 'W' } });
          if (reply.status === 201) acked.push(Date.now());
          else expect(reply).toMatchObject({ status: 503, body: { error: { code: 'unavailable' } } });
        } catch {
          // The instance went away under the request: never acknowledged.
        }
      }
    }));
    await Bun.sleep(300);

    const sql = new SQL({ url: TEST_POSTGRES_URL, max: 1 });
    const migrationFrom = Date.now() + DRAIN_MS;
    await migratePostgres(sql, schema.name, { migrationsFolder: newerRelease(dir), drainMs: DRAIN_MS }).finally(() => sql.close());
    loading = false;
    await load;

    const exits = await Promise.all(exitedAt);
    for (const exit of exits) {
      expect(exit.code).toBe(1);
      expect(exit.at).toBeLessThan(migrationFrom);
    }
    expect(acked.length).toBeGreaterThan(0);
    expect(Math.max(...acked)).toBeLessThan(migrationFrom);
    for (const instance of cluster.instances) expect(instance.output()).toContain('Stopping: The database holds 1 migration this release does not know');
    // The migration is applied and its announcement gone.
    expect(await schema.query('SELECT next_release_probe FROM licenses LIMIT 1')).toEqual([]);
    expect(await schema.query('SELECT * FROM __licensing_upgrades')).toEqual([]);

    const again = await spawnService(env);
    expect(await again.exited).toBe(1);
    expect(again.output().trim().split('\n')).toEqual([expect.stringMatching(/^Start-up failed: The database holds 1 migration this release does not know/)]);
  });
});
