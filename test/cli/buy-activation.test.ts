import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { buyInSandbox, cliWorld, connectSandbox, latestCode, sellerWithProduct, startCli, uniqueCardNumber, type CliWorld } from './support.ts';

let world: CliWorld;
let shop: Awaited<ReturnType<typeof sellerWithProduct>>;
beforeAll(async () => {
  world = await cliWorld();
  shop = await sellerWithProduct(world);
  await connectSandbox(world, shop.apiKey);
});
afterAll(async () => {
  await world.close();
});

/** A buyer who paid once in the sandbox (a card on file) and logged in with the CLI. */
async function loggedInBuyer() {
  const email = `act-${crypto.randomUUID()}@example.com`;
  await buyInSandbox(world, shop.publishableKey, shop.productId, email, uniqueCardNumber());
  const config = world.newConfig();
  await world.cli(config, ['login', '--email', email]);
  await world.cli(config, ['login', '--otp', await latestCode(world)]);
  return { email, config };
}

/** A terminal purchase in its two non-interactive steps. */
async function buyInTerminal(config: string, extra: string[] = []) {
  await world.cli(config, ['buy', shop.productId, ...extra]);
  return world.cli(config, ['buy', shop.productId, '--otp', await latestCode(world), ...extra]);
}

const machineOf = async (licenseId: string) =>
  ((await (await world.api('GET', `/licenses/${licenseId}`, { key: shop.apiKey })).json()) as { machineFingerprint: string | null }).machineFingerprint;

const configOf = (config: string) => JSON.parse(readFileSync(config, 'utf8'));

describe('buy says "activated on this machine" only when the API bound the license here', () => {
  test('with the seller’s publishable key: activated, and the license is bound to this machine', async () => {
    const { config } = await loggedInBuyer();

    const run = await buyInTerminal(config, ['--publishable-key', shop.publishableKey]);
    const fingerprint = (await world.cli(config, ['status', '--json'])).json().licenses[0].machineFingerprint;

    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Bought CLI Pro. The license is activated on this machine.');
    expect(await machineOf(/License:\s+(lic_\S+)/.exec(run.stdout)![1]!)).toBe(fingerprint);
  });

  test('without a publishable key: bought, not activated, and it says how to activate', async () => {
    const { config } = await loggedInBuyer();

    const run = await buyInTerminal(config, ['--json']);

    expect(run.code).toBe(0);
    expect(run.json()).toMatchObject({ activated: false, notActivated: 'no_publishable_key', productName: 'CLI Pro' });
    expect(await machineOf(run.json().license.id)).toBeNull();
    const human = await world.cli(config, ['licenses']);
    expect(human.code).toBe(0);
  });

  test('a publishable key the API refuses: not activated, never "The license is activated"', async () => {
    const { config } = await loggedInBuyer();

    const run = await buyInTerminal(config, ['--publishable-key', 'pk_wrong']);

    expect(run.code).toBe(0);
    expect(run.stdout).toStartWith('Bought CLI Pro. It is not activated on this machine');
    expect(run.stdout).not.toContain('The license is activated');
    expect(await machineOf(/License:\s+(lic_\S+)/.exec(run.stdout)![1]!)).toBeNull();
  });
});

describe('the publishable key is remembered per seller', () => {
  test('given once, it serves the seller’s other products: activate and status need no flag', async () => {
    const second = (await world.cli(shop.config, ['seller', 'products', 'create', '--name', 'CLI Team', '--price', '5', '--currency', 'usd', '--json'])).json();
    const grant = async (productId: string) =>
      (await world.cli(shop.config, ['seller', 'licenses', 'grant', '--product', productId, '--email', 'two@example.com', '--json'])).json().licenseKey as string;
    const buyer = world.newConfig();

    const first = await world.cli(buyer, ['activate', await grant(shop.productId), '--publishable-key', shop.publishableKey]);
    const other = await world.cli(buyer, ['activate', await grant(second.id)]);
    const status = await world.cli(buyer, ['status', '--json']);

    expect([first.code, other.code, status.code]).toEqual([0, 0, 0]);
    expect(configOf(buyer).publishableKeys).toEqual({ [shop.developerId]: shop.publishableKey });
    expect(status.json().licenses).toHaveLength(2);
  });

  test('a config file of an earlier version (key kept per product) still works, and moves to per seller', async () => {
    const licenseKey = (await world.cli(shop.config, ['seller', 'licenses', 'grant', '--product', shop.productId, '--email', 'old@example.com', '--json'])).json().licenseKey;
    const buyer = world.newConfig();
    mkdirSync(dirname(buyer), { recursive: true });
    writeFileSync(buyer, JSON.stringify({ licenses: { [shop.productId]: { licenseKey, developerId: shop.developerId, publishableKey: shop.publishableKey } } }));

    const status = await world.cli(buyer, ['status', '--json']);

    expect(status.code).toBe(0);
    expect(status.json().licenses[0]).toMatchObject({ valid: true, offlineVerified: false });
    expect(configOf(buyer).publishableKeys).toEqual({ [shop.developerId]: shop.publishableKey });
    expect(configOf(buyer).licenses[shop.productId].publishableKey).toBeUndefined();
  });
});

describe('buy --browser', () => {
  test('names the product it bought, activates it, and status shows the name', async () => {
    const config = world.newConfig();
    const email = `named-${crypto.randomUUID()}@example.com`;
    const cli = startCli(['buy', shop.productId, '--browser', '--email', email, '--publishable-key', shop.publishableKey, '--api-url', world.apiUrl, '--config', config]);

    const [, sessionId] = await cli.waitForStderr(/Pay on this page: \S+\/sandbox\/checkout\/(\S+)/);
    await world.api('POST', `/sandbox/checkout/${sessionId}/pay`, { form: { email, phone: '+15557650001', cardNumber: uniqueCardNumber() } });
    const run = await cli.finished();
    const status = await world.cli(config, ['status']);

    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Bought CLI Pro. The license is activated on this machine.');
    expect(status.stdout).toMatch(/^CLI Pro\s+lic_\S+\s+valid\b/m);
  });

  test('Cancel on the payment page ends the wait at once: exit 1, nothing kept', async () => {
    const config = world.newConfig();
    const cli = startCli(['buy', shop.productId, '--browser', '--publishable-key', shop.publishableKey, '--api-url', world.apiUrl, '--config', config]);

    const [, sessionId] = await cli.waitForStderr(/Pay on this page: \S+\/sandbox\/checkout\/(\S+)/);
    await world.api('POST', `/sandbox/checkout/${sessionId}/cancel`, { form: {} });
    const run = await cli.finished();

    expect(run.code).toBe(1);
    expect(run.stderr).toContain('cancelled on the payment page');
    expect(run.stderr).toMatch(/\(checkout_expired\)\n$/);
    expect(existsSync(config) ? configOf(config).licenses : undefined).toBeUndefined();
  });
});
