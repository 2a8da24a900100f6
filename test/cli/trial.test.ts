import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test';
import { cliWorld, sellerWithProduct, startCli, type CliWorld } from './support.ts';
import { terminalSession } from './tmux.ts';

let world: CliWorld;
let shop: Awaited<ReturnType<typeof sellerWithProduct>>;
let sessions: ReturnType<typeof terminalSession>[] = [];
beforeAll(async () => {
  world = await cliWorld('licensing-cli-trial-');
  shop = await sellerWithProduct(world);
  await world.cli(shop.config, ['seller', 'products', 'update', shop.productId, '--trial-days', '14', '--json']);
});
afterEach(() => {
  for (const session of sessions) session.close();
  sessions = [];
});
afterAll(async () => {
  await world.close();
});

/** The code in the newest mail kept for the address (sandbox mode). */
async function mailedCode(email: string): Promise<string> {
  const kept = (await (await world.api('GET', `/sandbox/mail?to=${encodeURIComponent(email)}`)).json()) as { data: { text: string }[] };
  const code = /\b(\d{6})\b/.exec(kept.data[0]?.text ?? '')?.[1];
  if (!code) throw new Error(`no code mailed to ${email}: ${JSON.stringify(kept)}`);
  return code;
}

/** A product of its own per test: the CLI runs on this host, whose machine has one trial per product. */
async function trialProduct(): Promise<string> {
  const made = await world.api('POST', '/developers/products', { key: shop.apiKey, body: { name: 'CLI Trial', price: 999, currency: 'usd', features: ['pro'], trialDays: 14 } });
  return ((await made.json()) as { id: string }).id;
}

const buyerEmail = () => `trial-${crypto.randomUUID()}@example.com`;

describe('licensing trial', () => {
  test('in two steps without a terminal: the first mails the code and says how to finish, the second starts the trial', async () => {
    const email = buyerEmail();
    const config = world.newConfig();
    const env = { env: { LICENSING_PUBLISHABLE_KEY: shop.publishableKey } };

    const first = await world.cli(config, ['trial', shop.productId, '--email', email, '--name', 'ci-box', '--json'], env);
    const second = await world.cli(config, ['trial', shop.productId, '--otp', await mailedCode(email), '--json'], env);
    const status = await world.cli(config, ['status', shop.productId, '--json'], env);

    expect(first.code).toBe(0);
    expect(first.json()).toMatchObject({ started: false, trialRequestId: expect.stringMatching(/^trq_/), next: `licensing trial ${shop.productId} --otp <code>` });
    expect(first.stderr).toContain(`A code was e-mailed to ${email}`);
    expect(JSON.stringify(first.json())).not.toContain('eyJ');
    expect(second.code).toBe(0);
    expect(second.json()).toMatchObject({ started: true, activated: true, license: { productId: shop.productId, trial: true }, activation: { name: 'ci-box' } });
    expect(status.json()).toMatchObject({ valid: true, licenses: [{ productId: shop.productId, valid: true }] });
  });

  test('--otp with no trial waiting is a usage error; a wrong code without a terminal is otp_invalid', async () => {
    const config = world.newConfig();
    const env = { env: { LICENSING_PUBLISHABLE_KEY: shop.publishableKey } };

    const nothing = await world.cli(config, ['trial', shop.productId, '--otp', '123456'], env);
    const email = buyerEmail();
    await world.cli(config, ['trial', shop.productId, '--email', email], env);
    const code = await mailedCode(email);
    const wrong = await world.cli(config, ['trial', shop.productId, '--otp', code === '000000' ? '111111' : '000000', '--json'], env);

    expect(nothing.code).not.toBe(0);
    expect(nothing.stderr).toContain('no trial of');
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr + wrong.stdout).toContain('otp_invalid');
  });

  test('without the seller’s publishable key: says so, sends nothing', async () => {
    const run = await world.cli(world.newConfig(), ['trial', shop.productId, '--email', buyerEmail()]);

    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('publishable key');
  });

  test('the code can be piped on stdin once it arrives', async () => {
    const email = buyerEmail();
    const productId = await trialProduct();
    const cli = startCli(['trial', productId, '--email', email, '--api-url', world.apiUrl, '--config', world.newConfig()], { env: { LICENSING_PUBLISHABLE_KEY: shop.publishableKey } });

    await cli.waitForStderr(/A code was e-mailed/);
    cli.type(`${await mailedCode(email)}\n`);
    cli.endInput();
    const run = await cli.finished();

    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Started the free trial of');
    expect(run.stdout).toContain('The license is activated on this machine.');
  });

  test('on a terminal: asks for the e-mail, then the code, again after a wrong one', async () => {
    const email = buyerEmail();
    const productId = await trialProduct();
    const session = terminalSession(['trial', productId, '--api-url', world.apiUrl, '--config', world.newConfig(), '--publishable-key', shop.publishableKey]);
    sessions.push(session);

    await session.waitFor(/E-mail: $/m);
    session.enter(email);
    await session.waitFor(/Code from the e-mail: $/m);
    const code = await mailedCode(email);
    session.enter(code === '000000' ? '111111' : '000000');
    await session.waitFor(/try again/);
    session.enter(code);
    const screen = await session.waitFor(/\[exit \d+\]/);

    expect(screen).toContain(`A code was e-mailed to ${email}`);
    expect(screen).toContain('That code is not right; try again.');
    expect(screen).toContain('Started the free trial of');
    expect(screen).toContain('[exit 0]');
  });
});
