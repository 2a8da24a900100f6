import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
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

/**
 * A buyer who paid once in the sandbox (phone +15551234567 and a card on file). Each has a card
 * number of their own: the sandbox saves one card per seller and number (see the report).
 */
async function paidBuyer() {
  const email = `buyer-${crypto.randomUUID()}@example.com`;
  const cardNumber = uniqueCardNumber();
  await buyInSandbox(world, shop.publishableKey, shop.productId, email, cardNumber);
  return { email, config: world.newConfig(), last4: cardNumber.slice(-4) };
}

/** Two non-interactive steps: send the code, then log in with it. */
async function loggedIn() {
  const buyer = await paidBuyer();
  await world.cli(buyer.config, ['login', '--email', buyer.email]);
  await world.cli(buyer.config, ['login', '--otp', await latestCode(world)]);
  return buyer;
}

describe('licensing login, licenses, logout (non-interactive)', () => {
  test('login in two steps: the first sends the code and says how to finish, the second logs in', async () => {
    const { email, config } = await paidBuyer();

    const first = await world.cli(config, ['login', '--email', email, '--json']);
    const { otpId } = first.json();
    const second = await world.cli(config, ['login', '--email', email, '--otp-id', otpId, '--otp', await latestCode(world), '--json']);

    expect(first.code).toBe(0);
    expect(first.json()).toMatchObject({ loggedIn: false, next: expect.stringContaining('--otp <code>') });
    expect(first.stderr).toContain('A code was sent to');
    expect(second.code).toBe(0);
    expect(second.json()).toMatchObject({ loggedIn: true, email, licenses: [{ productId: shop.productId, productName: 'CLI Pro', status: 'active' }] });
  });

  test('the code can be piped on stdin once it arrives', async () => {
    const { email, config } = await paidBuyer();
    const cli = startCli(['login', '--email', email, '--api-url', world.apiUrl, '--config', config]);

    await cli.waitForStderr(/A code was sent/);
    cli.type(`${await latestCode(world)}\n`);
    cli.endInput();
    const run = await cli.finished();

    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Logged in as ${email}.`);
    expect(run.stdout).toMatch(/CLI Pro\s+prod_\S+\s+lic_\S+\s+active\s+never\s+pro,export/);
  });

  test('a wrong code exits 1 with otp_invalid', async () => {
    const { email, config } = await paidBuyer();
    const { otpId } = (await world.cli(config, ['login', '--email', email, '--json'])).json();
    const right = await latestCode(world);

    const run = await world.cli(config, ['login', '--email', email, '--otp-id', otpId, '--otp', right === '000000' ? '111111' : '000000']);

    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error: .+ \(otp_invalid\)\n$/);
  });

  test('licenses lists the logged-in buyer’s licenses with their current status', async () => {
    const { config } = await loggedIn();

    const run = await world.cli(config, ['licenses', '--json']);

    expect(run.code).toBe(0);
    expect(run.json().data).toEqual([expect.objectContaining({ productId: shop.productId, productName: 'CLI Pro', status: 'active' })]);
  });

  test('logout revokes the token: licenses then exits 4', async () => {
    const { config } = await loggedIn();

    const logout = await world.cli(config, ['logout']);
    const after = await world.cli(config, ['licenses']);

    expect(logout.code).toBe(0);
    expect(after.code).toBe(4);
    expect(after.stderr).toContain('licensing login');
  });
});

describe('licensing buy', () => {
  test('with a saved card, in two steps: the code, then the license, activated on this machine', async () => {
    const { config, last4 } = await loggedIn();

    const first = await world.cli(config, ['buy', shop.productId, '--json']);
    const second = await world.cli(config, ['buy', shop.productId, '--otp', await latestCode(world), '--json']);
    const status = await world.cli(config, ['status', '--publishable-key', shop.publishableKey, '--json']);

    expect(first.stderr).toContain(`Buying CLI Pro for $19.99 with visa •••• ${last4}`);
    expect(first.json()).toMatchObject({ bought: false, next: `licensing buy ${shop.productId} --otp <code>` });
    expect(second.code).toBe(0);
    expect(second.json()).toMatchObject({ licenseKey: expect.any(String), license: { productId: shop.productId, status: 'active' } });
    expect(status.code).toBe(0);
    expect(status.json().licenses[0]).toMatchObject({ valid: true, license: { id: second.json().license.id } });
  });

  test('--otp without a purchase waiting for a code is a usage error', async () => {
    const { config } = await loggedIn();

    const run = await world.cli(config, ['buy', shop.productId, '--otp', '123456']);

    expect(run.code).toBe(2);
  });

  test('without logging in, buy exits 4', async () => {
    const run = await world.cli(world.newConfig(), ['buy', shop.productId]);

    expect(run.code).toBe(4);
    expect(run.stderr).toBe('error: not logged in: run "licensing login" first (not_logged_in)\n');
  });

  test('--browser prints the checkout page, waits for the payment and keeps the key', async () => {
    const config = world.newConfig();
    const email = `browser-${crypto.randomUUID()}@example.com`;
    const cli = startCli(['buy', shop.productId, '--browser', '--email', email, '--publishable-key', shop.publishableKey, '--json', '--api-url', world.apiUrl, '--config', config]);

    const [, sessionId] = await cli.waitForStderr(/Pay on this page: \S+\/sandbox\/checkout\/(\S+)/);
    await world.api('POST', `/sandbox/checkout/${sessionId}/pay`, { form: { email, phone: '+15557654321', cardNumber: '4242424242424242' } });
    const run = await cli.finished();
    const status = await world.cli(config, ['status', '--json']);

    expect(run.code).toBe(0);
    expect(run.json()).toMatchObject({ licenseKey: expect.any(String), license: { productId: shop.productId } });
    expect(status.json()).toMatchObject({ valid: true, licenses: [{ productId: shop.productId, valid: true }] });
  });
});
