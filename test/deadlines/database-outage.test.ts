import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { SQL } from 'bun';
import { drizzle } from 'drizzle-orm/bun-sql';
import { openPostgresStore, type PostgresStore } from '../../src/adapters/postgres/postgres-store.ts';
import { PostgresLicenseRepository } from '../../src/adapters/store/licenses/postgres-license-writes.ts';
import * as schemaTables from '../../src/adapters/store/tables.ts';
import { depsFor } from '../support/deps.ts';
import { seller, testApi, type Reply, type TestApi } from '../support/http.ts';
import { testSchemas } from '../support/postgres-schemas.ts';
import { TEST_POSTGRES_URL } from '../support/postgres-url.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';

/**
 * Every way a connection to PostgreSQL fails answers 503 `unavailable` with Retry-After, never a
 * 500, and the service recovers once the database is back. The service reaches PostgreSQL through
 * a TCP proxy the test breaks and mends (the shared server is never stopped). `sslmode=prefer`: the
 * proxy forwards the server's "no TLS" as is, and can play a broken TLS terminator.
 */
describe('PostgreSQL going away, every way', () => {
  let schema: string;
  let proxy: TcpProxy;
  let store: PostgresStore;
  let api: TestApi;
  let admin: SQL;
  let holder: SQL;
  let validate: (machine?: string) => Promise<Reply>;
  const logs: string[] = [];

  beforeAll(async () => {
    schema = await testSchemas().take();
    const target = new URL(TEST_POSTGRES_URL);
    proxy = await startTcpProxy({ hostname: target.hostname, port: Number(target.port || 5432) });
    const url = new URL(proxy.url(TEST_POSTGRES_URL));
    url.searchParams.set('sslmode', 'prefer');
    store = await openPostgresStore(url.href, { schema, max: 2, statementTimeoutMs: 5_000, lockTimeoutMs: 4_000, connectTimeoutMs: 2_000 });
    api = testApi({ deps: depsFor(store), logs, ping: store.ping, readyTimeoutMs: 1_000 });
    const s = await seller(api);
    const { licenseKey } = await s.grant();
    validate = (machine = 'm') => api.call('POST', '/licenses/validate', { key: s.publishableKey, body: { licenseKey, machineFingerprint: machine } });
    admin = new SQL({ url: TEST_POSTGRES_URL, max: 1 });
    holder = new SQL({ url: TEST_POSTGRES_URL, max: 1 });
  });
  afterAll(async () => {
    await proxy?.close();
    await admin?.close();
    await holder?.close();
    await store?.close();
    if (schema) await testSchemas().give(schema);
  });

  const expectUnavailable = (reply: Reply) => {
    expect({ status: reply.status, body: reply.body }).toEqual({ status: 503, body: { error: { code: 'unavailable', message: expect.any(String) } } });
    expect(reply.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
  };
  /** The service answers again once the proxy forwards: the pool reconnects by itself. */
  const recovers = async () => {
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i++) {
      status = (await validate()).status;
      if (status !== 200) await Bun.sleep(100);
    }
    expect(status).toBe(200);
    expect(logs.some((line) => line.includes('unhandled error'))).toBe(false);
  };
  /** Holds the licenses table in another session, so the service's next read waits on the server. */
  const lockLicenses = async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held!: () => void;
    const isHeld = new Promise<void>((resolve) => (held = resolve));
    const done = holder.begin(async (tx) => {
      await tx.unsafe(`LOCK TABLE "${schema}".licenses IN ACCESS EXCLUSIVE MODE`);
      held();
      await released;
    });
    await isHeld;
    return async () => {
      release();
      await done;
    };
  };
  /** Resolves once one of the service's statements waits for the licenses lock. */
  const untilWaiting = async () => {
    for (let i = 0; i < 200; i++) {
      const [row] = await admin.unsafe(`SELECT count(*)::int AS n FROM pg_locks WHERE relation = '"${schema}".licenses'::regclass AND NOT granted`);
      if (row.n > 0) return;
      await Bun.sleep(25);
    }
    throw new Error('no statement waited for the lock');
  };

  test('refused (the port closed): 503, then it recovers', async () => {
    expect((await validate()).status).toBe(200);
    await proxy.cut();
    try {
      for (let i = 0; i < 4; i++) expectUnavailable(await validate());
    } finally {
      await proxy.restore();
    }
    await recovers();
  });

  test('reset mid-query (cut while a read waits on the server): 503, then it recovers', async () => {
    const unlock = await lockLicenses();
    try {
      const waiting = validate();
      await untilWaiting();
      proxy.reset();
      expectUnavailable(await waiting);
      expectUnavailable(await validate());
    } finally {
      await unlock();
    }
    await recovers();
  });

  test('terminated by the administrator (pg_terminate_backend while it waits): 503, then it recovers', async () => {
    const unlock = await lockLicenses();
    try {
      const waiting = validate();
      await untilWaiting();
      await admin.unsafe(`SELECT pg_terminate_backend(pid) FROM pg_locks WHERE relation = '"${schema}".licenses'::regclass AND NOT granted`);
      expectUnavailable(await waiting);
    } finally {
      await unlock();
    }
    await recovers();
  });

  test('too many clients (the server refuses new connections with 53300): 503, then it recovers', async () => {
    proxy.refuseWith('53300', 'sorry, too many clients already');
    try {
      for (let i = 0; i < 4; i++) expectUnavailable(await validate());
    } finally {
      await proxy.restore();
    }
    await recovers();
  });

  test('TLS failing (the TLS terminator answers no TLS): 503, then it recovers', async () => {
    proxy.breakTls();
    try {
      for (let i = 0; i < 4; i++) expectUnavailable(await validate());
    } finally {
      await proxy.restore();
    }
    await recovers();
  });

  test('DNS failing (the host name does not resolve): 503', async () => {
    // The real repository on a pool whose host is unknown: Bun reports it as refused, the store's own error.
    const lost = new SQL({ url: 'postgres://postgres@pg.database.invalid:5432/test', max: 1, connectionTimeout: 2 });
    const deps = depsFor(store);
    const dnsApi = testApi({ deps: { ...deps, licenses: new PostgresLicenseRepository(drizzle({ client: lost, schema: schemaTables })) }, logs: [] });
    try {
      const s = await seller(dnsApi);
      const reply = await dnsApi.call('POST', '/developers/licenses', { key: s.apiKey, body: { productId: s.product.id, email: 'b@example.com' } });
      expectUnavailable(reply);
      expect(dnsApi.logs.some((line) => line.includes('unhandled error'))).toBe(false);
    } finally {
      await lost.close();
    }
  });
});
