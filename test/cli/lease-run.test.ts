import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { cliWorld, grantLicense, ROOT, runCli, sellerWithProduct, type CliWorld } from './support.ts';

/** `licensing lease run -- <command>` against the real service (a server process on a SQLite file). */
let world: CliWorld;
let shop: Awaited<ReturnType<typeof sellerWithProduct>>;
beforeAll(async () => {
  world = await cliWorld();
  shop = await sellerWithProduct(world);
  const changed = await world.api('PATCH', `/developers/products/${shop.productId}`, { key: shop.apiKey, body: { maxLeases: 1 } });
  if (changed.status !== 200) throw new Error(`maxLeases: ${await changed.text()}`);
});
afterAll(async () => {
  await world.close();
});

async function licensed() {
  const { licenseKey, license } = await grantLicense(world, shop.apiKey, shop.productId, `ci-${crypto.randomUUID()}@example.com`);
  const env = { LICENSING_LICENSE_KEY: licenseKey, LICENSING_PUBLISHABLE_KEY: shop.publishableKey };
  const live = async () => (await (await world.api('GET', `/licenses/${license.id}/leases`, { key: shop.apiKey })).json()).live as { machineFingerprint: string }[];
  const leaseEvents = async () => {
    const events = (await (await world.api('GET', `/developers/events?licenseId=${license.id}&limit=100`, { key: shop.apiKey })).json()).data as { type: string; data: { lease: { machineFingerprint: string } } }[];
    return events.filter((e) => e.type.startsWith('lease.')).reverse();
  };
  return { env, live, leaseEvents, config: world.newConfig() };
}

/** `lease run` with the flags before `--`: everything after it is the command's. */
const leaseRun = (config: string, command: string[], env: Record<string, string>) =>
  runCli(['lease', 'run', '--api-url', world.apiUrl, '--config', config, ...(command.length ? ['--', ...command] : [])], { env });

/** The CLI as a child the test can signal. */
function spawnCli(config: string, args: string[], env: Record<string, string>) {
  const clean: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined && !name.startsWith('LICENSING_')) clean[name] = value;
  return Bun.spawn(['bun', 'run', join(ROOT, 'src/cli/main.ts'), 'lease', 'run', '--api-url', world.apiUrl, '--config', config, '--', ...args], { cwd: ROOT, env: { ...clean, ...env }, stdout: 'pipe', stderr: 'pipe' });
}

async function until(check: () => Promise<boolean>, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await Bun.sleep(50);
  }
}

describe('licensing lease run', () => {
  test('passes the command’s exit code through and releases the lease (created, then released)', async () => {
    const { env, live, leaseEvents, config } = await licensed();
    const run = await leaseRun(config, ['sh', '-c', 'echo held; exit 7'], env);
    expect(run.code).toBe(7);
    expect(run.stdout).toBe('held\n');
    expect(await live()).toEqual([]);
    // Written in one millisecond, so listed in no particular order among themselves.
    expect((await leaseEvents()).map((e) => e.type).sort()).toEqual(['lease.created', 'lease.limit_reached', 'lease.released']);
    expect((await leaseRun(config, ['true'], env)).code).toBe(0);
  });

  test('the command gets the lease id, never the license key nor the seller’s secret key', async () => {
    const { env, leaseEvents, config } = await licensed();
    const show = 'echo "key=${LICENSING_LICENSE_KEY-unset} secret=${LICENSING_SECRET_KEY-unset} lease=${LICENSING_LEASE_ID-unset} other=${OTHER-unset}"';
    const run = await leaseRun(config, ['sh', '-c', show], { ...env, LICENSING_SECRET_KEY: 'sk_not_for_the_child', OTHER: 'kept' });
    expect(run.code).toBe(0);
    const created = (await leaseEvents()).find((e) => e.type === 'lease.created') as unknown as { data: { lease: { id: string } } };
    expect(run.stdout).toBe(`key=unset secret=unset lease=${created.data.lease.id} other=kept\n`);
  });

  test('the machine is LICENSING_FINGERPRINT when set, else a fresh id per run', async () => {
    const { env, leaseEvents, config } = await licensed();
    await leaseRun(config, ['true'], { ...env, LICENSING_FINGERPRINT: 'container-42' });
    await leaseRun(config, ['true'], env);
    await leaseRun(config, ['true'], env);
    const machines = (await leaseEvents()).filter((e) => e.type === 'lease.created').map((e) => e.data.lease.machineFingerprint);
    expect(machines).toHaveLength(3);
    expect(machines).toContain('container-42');
    const fresh = machines.filter((m) => m !== 'container-42');
    for (const machine of fresh) expect(machine).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set(fresh).size).toBe(2);
  });

  test('all seats held: exit 3 with lease_limit, and the command never runs; SIGTERM ends the holder’s command, then the seat is free', async () => {
    const { env, live, config } = await licensed();
    const holder = spawnCli(config, ['sleep', '30'], env);
    await until(async () => (await live()).length === 1);
    const refused = await leaseRun(config, ['sh', '-c', 'echo ran'], env);
    expect(refused.code).toBe(3);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('(lease_limit)');
    holder.kill('SIGTERM');
    expect(await holder.exited).toBe(128 + 15);
    expect(await live()).toEqual([]);
  });

  test('no command: a usage error (exit 2)', async () => {
    const { env, config } = await licensed();
    const run = await leaseRun(config, [], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no command to run');
  });
});
