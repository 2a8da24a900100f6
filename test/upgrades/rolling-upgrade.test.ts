import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { POSTGRES_MIGRATION_LIST } from '../../src/adapters/postgres/migrations/index.ts';
import { client, expectStatus } from '../crash/client.ts';
import { freshPostgresSchema, randomMasterKey, spawnService, startCluster, type Cluster } from '../support/server-process.ts';

/**
 * Two instances of this release on one PostgreSQL schema; then a newer release migrates it (here:
 * one migration past the newest this code knows is recorded). Each running instance stops within
 * SCHEMA_CHECK_SECONDS and exits 1 with one line; started again, it refuses to start.
 */
describe('a newer release migrates the schema under running instances', () => {
  const schema = freshPostgresSchema();
  const env = { DATABASE_URL: schema.databaseUrl, MASTER_KEY: randomMasterKey(), SCHEMA_CHECK_SECONDS: '1' };
  let cluster: Cluster;

  beforeAll(async () => {
    cluster = await startCluster(2, env);
  });
  afterAll(async () => {
    await cluster.stop('SIGKILL');
    await schema.drop();
  });

  test('every old instance stops serving, exits 1 with one line, and refuses to start again', async () => {
    const call = client(cluster.next());
    await expectStatus(call('POST', '/developers/signup', { body: { email: 'before@example.com', name: 'Before' } }), 201, 'signup before');

    const future = Math.max(...POSTGRES_MIGRATION_LIST.map((m) => m.folderMillis)) + 86_400_000;
    await schema.query(`INSERT INTO "__drizzle_migrations" (hash, created_at) VALUES ('from-a-newer-release', ${future})`);

    const codes = await Promise.race([
      Promise.all(cluster.instances.map((i) => i.exited)),
      Bun.sleep(15_000).then(() => null),
    ]);
    expect(codes).toEqual([1, 1]);
    for (const instance of cluster.instances) {
      expect(instance.output()).toContain('Stopping: The database holds 1 migration this release does not know');
      // Nothing answers a write any more.
      await expect(fetch(`${instance.url}/v1/developers/signup`, { method: 'POST' })).rejects.toThrow();
    }
    const developers = await schema.query<{ n: number }>('SELECT count(*)::int AS n FROM developers');
    expect(developers[0]!.n).toBe(1);

    const again = await spawnService(env);
    expect(await again.exited).toBe(1);
    expect(again.output().trim().split('\n')).toEqual([expect.stringMatching(/^Start-up failed: The database holds 1 migration this release does not know/)]);
  });
});
