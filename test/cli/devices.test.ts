import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test';
import { hostname } from 'node:os';
import { machineFingerprint, productFingerprint } from '../../src/client/index.ts';
import { buyInSandbox, cliWorld, connectSandbox, latestCode, sellerWithProduct, uniqueCardNumber, type CliWorld } from './support.ts';
import { terminalSession } from './tmux.ts';

/**
 * `licensing devices` and `licensing devices remove` for a logged-in buyer, and `activate --name`,
 * against the real service: the buyer's licenses allow two machines.
 */
let world: CliWorld;
let shop: Awaited<ReturnType<typeof sellerWithProduct>>;
/** What the product's applications bind to here, and the legacy fingerprint the devices listing reports (docs/machine-files.md). */
let here: string;
let legacyHere: string;
let sessions: ReturnType<typeof terminalSession>[] = [];
beforeAll(async () => {
  world = await cliWorld();
  shop = await sellerWithProduct(world);
  await connectSandbox(world, shop.apiKey);
  const changed = await world.api('PATCH', `/developers/products/${shop.productId}`, { key: shop.apiKey, body: { maxMachines: 2 } });
  if (changed.status !== 200) throw new Error(`maxMachines: ${await changed.text()}`);
  here = await productFingerprint(shop.productId);
  legacyHere = await machineFingerprint();
});
afterEach(() => {
  for (const session of sessions) session.close();
  sessions = [];
});
afterAll(async () => {
  await world.close();
});

/** A buyer who paid in the sandbox and logged in with the CLI (own config): their one license. */
async function buyer() {
  const email = `devices-${crypto.randomUUID()}@example.com`;
  await buyInSandbox(world, shop.publishableKey, shop.productId, email, uniqueCardNumber());
  const config = world.newConfig();
  await world.cli(config, ['login', '--email', email]);
  const login = (await world.cli(config, ['login', '--otp', await latestCode(world), '--json'])).json();
  return { config, email, licenseId: login.licenses[0].id as string, licenseKey: login.licenses[0].licenseKey as string };
}

/** Another machine activating the license through the API, as an application would. */
async function elsewhere(licenseKey: string, machineFingerprint: string, name?: string) {
  const reply = await world.api('POST', '/licenses/activate', { key: shop.publishableKey, body: { licenseKey, machineFingerprint, ...(name && { name }) } });
  if (reply.status !== 201) throw new Error(`activate: ${reply.status} ${await reply.text()}`);
  return ((await reply.json()) as { activation: { id: string } }).activation.id;
}

const machines = async (licenseId: string) =>
  (await (await fetch(`${world.apiUrl}/licenses/${licenseId}/activations`, { headers: { 'x-api-key': shop.apiKey } })).json()) as { data: { id: string; name: string | null }[] };

describe('licensing devices', () => {
  test('lists each license with its machines, their names and ids, and marks this machine', async () => {
    const { config, licenseId, licenseKey } = await buyer();
    await world.cli(config, ['activate', licenseKey, '--name', 'desk-1', '--publishable-key', shop.publishableKey]);
    await elsewhere(licenseKey, 'f'.repeat(64), 'other-box');

    const json = await world.cli(config, ['devices', '--json']);
    const human = await world.cli(config, ['devices']);

    expect(json.code).toBe(0);
    expect(json.json()).toMatchObject({
      fingerprint: legacyHere,
      data: [
        {
          id: licenseId, productName: 'CLI Pro', maxMachines: 2,
          activations: [
            { id: expect.stringMatching(/^act_/), name: 'desk-1', machineFingerprint: here, thisMachine: true, lastSeenAt: expect.any(Number) },
            { id: expect.stringMatching(/^act_/), name: 'other-box', machineFingerprint: 'f'.repeat(64), thisMachine: false },
          ],
        },
      ],
    });
    expect(human.stdout).toContain(`CLI Pro (${licenseId}): 2 of 2 machines`);
    expect(human.stdout).toMatch(/desk-1\s+act_\S+\s+\d{4}-\d\d-\d\dT\S+Z\s+this machine/);
    expect(human.stdout.split('\n').find((line) => line.includes('other-box'))).not.toContain('this machine');
  });

  test('not logged in: exit 4, says to log in', async () => {
    const run = await world.cli(world.newConfig(), ['devices']);

    expect(run.code).toBe(4);
    expect(run.stderr).toContain('licensing login');
  });
});

describe('licensing devices remove', () => {
  test('off a terminal without --yes: exit 2 and nothing removed; with --yes the slot is freed and a new machine takes it', async () => {
    const { config, licenseId, licenseKey } = await buyer();
    const first = await elsewhere(licenseKey, 'a'.repeat(64), 'old-laptop');
    await elsewhere(licenseKey, 'b'.repeat(64), 'desk');

    const refused = await world.cli(config, ['devices', 'remove', first]);
    const kept = (await machines(licenseId)).data.length;
    const removed = await world.cli(config, ['devices', 'remove', first, '--yes', '--json']);
    const taken = await world.api('POST', '/licenses/activate', { key: shop.publishableKey, body: { licenseKey, machineFingerprint: 'c'.repeat(64) } });

    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect(kept).toBe(2);
    expect(removed.code).toBe(0);
    expect(removed.json()).toMatchObject({ removed: { id: first, name: 'old-laptop', thisMachine: false }, licenseId, maxMachines: 2, data: [{ name: 'desk' }], forgottenHere: false });
    expect(taken.status).toBe(201);
  });

  test('removing this machine forgets the license here too: status then has nothing activated', async () => {
    const { config, licenseKey } = await buyer();
    await world.cli(config, ['activate', licenseKey, '--publishable-key', shop.publishableKey]);
    const mine = (await world.cli(config, ['devices', '--json'])).json().data[0].activations.find((a: { thisMachine: boolean }) => a.thisMachine);

    const removed = await world.cli(config, ['devices', 'remove', mine.id, '--yes']);
    const status = await world.cli(config, ['status']);

    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain(`Removed ${hostname()} (${mine.id}), this machine: 0 of 2 machines in use.`);
    expect(removed.stdout).toContain('"licensing activate" takes a slot again');
    expect(status.code).toBe(4);
  });

  test('an id none of the buyer’s licenses has: exit 1 not_found, as one JSON error with --json', async () => {
    const { config } = await buyer();

    const run = await world.cli(config, ['devices', 'remove', 'act_nobodys', '--yes', '--json']);

    expect(run.code).toBe(1);
    expect(run.json()).toEqual({ error: { code: 'not_found', message: expect.stringContaining('licensing devices') }, exitCode: 1 });
  });

  test('past the deactivation limit (3 per 30 days): exit 1 rate_limited, the machine stays', async () => {
    const { config, licenseId, licenseKey } = await buyer();
    for (let i = 0; i < 3; i++) {
      const id = await elsewhere(licenseKey, `${i}`.repeat(64));
      expect((await world.cli(config, ['devices', 'remove', id, '--yes'])).code).toBe(0);
    }
    const last = await elsewhere(licenseKey, '9'.repeat(64), 'last');

    const run = await world.cli(config, ['devices', 'remove', last, '--yes']);

    expect(run.code).toBe(1);
    expect(run.stderr).toContain('(rate_limited)');
    expect((await machines(licenseId)).data.map((a) => a.name)).toEqual(['last']);
  });

  test('on a terminal it asks first: "n" changes nothing (exit 1)', async () => {
    const { config, licenseId, licenseKey } = await buyer();
    const id = await elsewhere(licenseKey, 'd'.repeat(64), 'spare');

    const asked = terminalSession(['devices', 'remove', id, '--api-url', world.apiUrl, '--config', config]);
    sessions.push(asked);
    await asked.waitFor(/Remove spare .*\[y\/N\] $/m);
    asked.enter('n');
    const screen = await asked.waitFor(/\[exit \d+\]/);

    expect(screen).toContain('cancelled, nothing changed');
    expect(screen).toContain('[exit 1]');
    expect((await machines(licenseId)).data).toHaveLength(1);
  });
});

describe('licensing activate --name', () => {
  test('the slot is taken under the host name by default', async () => {
    const { config, licenseKey } = await buyer();

    const run = await world.cli(config, ['activate', licenseKey, '--publishable-key', shop.publishableKey, '--json']);

    expect(run.code).toBe(0);
    expect(run.json()).toMatchObject({ activated: true, activation: { name: hostname(), machineFingerprint: here } });
  });

  test('a full license: exit 3 with the machines holding the slots and how to free one', async () => {
    const { config, licenseKey } = await buyer();
    const a = await elsewhere(licenseKey, 'a'.repeat(64), 'studio');
    const b = await elsewhere(licenseKey, 'b'.repeat(64));

    const json = await world.cli(config, ['activate', licenseKey, '--name', 'third', '--publishable-key', shop.publishableKey, '--json']);
    const human = await world.cli(config, ['activate', licenseKey, '--publishable-key', shop.publishableKey]);

    expect(json.code).toBe(3);
    expect(json.json()).toMatchObject({ activated: false, valid: false, reason: 'machine_mismatch', maxMachines: 2, activations: [{ id: a, name: 'studio' }, { id: b, name: null }] });
    expect(human.stdout).toContain(`It is active on 2 of 2 machines: studio (${a}), unnamed (${b}).`);
    expect(human.stdout).toContain('licensing devices remove <id>');
  });

  test('a name the service would refuse is a usage error before anything is sent', async () => {
    const run = await world.cli(world.newConfig(), ['activate', 'x.y.z', '--name', 'tab\there', '--publishable-key', 'pk_x']);

    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--name');
  });
});
