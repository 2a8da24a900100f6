import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { buyInSandbox, cliWorld, connectSandbox, latestCode, sellerWithProduct, uniqueCardNumber, type CliWorld } from './support.ts';
import { terminalSession } from './tmux.ts';

let world: CliWorld;
let shop: Awaited<ReturnType<typeof sellerWithProduct>>;
let sessions: ReturnType<typeof terminalSession>[] = [];
beforeAll(async () => {
  world = await cliWorld();
  shop = await sellerWithProduct(world);
  await connectSandbox(world, shop.apiKey);
});
afterEach(() => {
  for (const session of sessions) session.close();
  sessions = [];
});
afterAll(async () => {
  await world.close();
});

function terminal(config: string, args: string[]) {
  const session = terminalSession([...args, '--api-url', world.apiUrl, '--config', config]);
  sessions.push(session);
  return session;
}

/** Logs in on the terminal: the e-mail prompt, then the code prompt. */
async function logInOnTerminal(email: string, config: string) {
  const login = terminal(config, ['login']);
  await login.waitFor(/E-mail: $/m);
  login.enter(email);
  await login.waitFor(/Code from the e-mail or text message: $/m);
  login.enter(await latestCode(world));
  return login.waitFor(/\[exit \d+\]/);
}

describe('licensing on a terminal (tmux)', () => {
  test('a buyer who paid in the sandbox logs in at the prompts and sees their licenses', async () => {
    const email = `tty-${crypto.randomUUID()}@example.com`;
    await buyInSandbox(world, shop.publishableKey, shop.productId, email);

    const screen = await logInOnTerminal(email, world.newConfig());

    expect(screen).toContain('A code was sent to ');
    expect(screen).toContain(`Logged in as ${email}.`);
    expect(screen).toMatch(/PRODUCT\s+PRODUCT ID\s+LICENSE\s+STATUS\s+EXPIRES\s+FEATURES/);
    expect(screen).toMatch(/CLI Pro\s+prod_\S+\s+lic_\S+\s+active\s+never\s+pro,export/);
    expect(screen).toContain('[exit 0]');
  });

  test('a wrong code is asked again instead of ending the login', async () => {
    const email = `retry-${crypto.randomUUID()}@example.com`;
    await buyInSandbox(world, shop.publishableKey, shop.productId, email, uniqueCardNumber());
    const login = terminal(world.newConfig(), ['login', '--email', email]);
    await login.waitFor(/Code from the e-mail or text message: $/m);
    const code = await latestCode(world);

    login.enter(code === '000000' ? '111111' : '000000');
    await login.waitFor(/try again/);
    login.enter(code);
    const screen = await login.waitFor(/\[exit \d+\]/);

    expect(screen).toContain(`Logged in as ${email}.`);
    expect(screen).toContain('[exit 0]');
  });

  test('seller login asks for the secret key on the terminal and never shows it', async () => {
    const config = world.newConfig();
    const login = terminal(config, ['seller', 'login']);
    await login.waitFor(/Secret key \(sk_…, not shown\): $/m);

    login.enter(shop.apiKey);
    const screen = await login.waitFor(/\[exit \d+\]/);

    expect(screen).toContain('[exit 0]');
    expect(screen).toContain('Secret key saved to');
    expect(screen).not.toContain(shop.apiKey.slice(3));
    expect(JSON.parse(readFileSync(config, 'utf8')).seller.apiKey).toBe(shop.apiKey);
  });

  test('activate asks for the license key on the terminal and never shows it', async () => {
    const grant = await world.cli(shop.config, ['seller', 'licenses', 'grant', '--product', shop.productId, '--email', 'tty-key@example.com', '--json']);
    const { licenseKey, license } = grant.json();
    const activate = terminal(world.newConfig(), ['activate', '--publishable-key', shop.publishableKey]);
    await activate.waitFor(/License key \(not shown\): $/m);

    activate.enter(licenseKey);
    const screen = await activate.waitFor(/\[exit \d+\]/);

    expect(screen).toContain('[exit 0]');
    expect(screen).toContain(`Activated ${license.id}`);
    expect(screen).not.toContain(licenseKey.slice(0, 24));
  });

  test('Ctrl-C at a prompt cancels with one line and exit 1, no stack trace', async () => {
    const login = terminal(world.newConfig(), ['login']);
    await login.waitFor(/E-mail: $/m);

    login.press('C-c');
    const screen = await login.waitFor(/\[exit \d+\]/);

    expect(screen).toContain('error: cancelled (cancelled)');
    expect(screen).toContain('[exit 1]');
    expect(screen).not.toContain('    at ');
  });

  test('buying with a saved card: choose among the cards, type the code, the license is activated', async () => {
    const email = `cards-${crypto.randomUUID()}@example.com`;
    const [first, second] = [uniqueCardNumber(), uniqueCardNumber()];
    await buyInSandbox(world, shop.publishableKey, shop.productId, email, first);
    await buyInSandbox(world, shop.publishableKey, shop.productId, email, second);
    const config = world.newConfig();
    await logInOnTerminal(email, config);
    const buy = terminal(config, ['buy', shop.productId, '--publishable-key', shop.publishableKey]);

    const menu = await buy.waitFor(/Card \[1-2, Enter for 1\]: $/m);
    const secondChoice = /2\) visa •••• (\d{4})/.exec(menu)?.[1];
    buy.enter('2');
    await buy.waitFor(/Code from the text message: $/m);
    buy.enter(await latestCode(world));
    const screen = await buy.waitFor(/\[exit \d+\]/);

    expect([first.slice(-4), second.slice(-4)]).toContain(secondChoice!);
    expect(screen).toContain(`with visa •••• ${secondChoice}`);
    expect(screen).toContain('Bought CLI Pro. The license is activated on this machine.');
    expect(screen).toContain('[exit 0]');
  });

  test('buying in the browser shows a live "Waiting for payment…" line until the page is paid', async () => {
    const config = world.newConfig();
    const email = `live-${crypto.randomUUID()}@example.com`;
    const buy = terminal(config, ['buy', shop.productId, '--browser', '--no-open', '--email', email, '--publishable-key', shop.publishableKey]);

    const waiting = await buy.waitFor(/Waiting for payment… \d+:\d\d/);
    const sessionId = /\/sandbox\/checkout\/(\S+)/.exec(waiting)?.[1];
    await world.api('POST', `/sandbox/checkout/${sessionId}/pay`, { form: { email, phone: '+15550001111', cardNumber: uniqueCardNumber() } });
    const screen = await buy.waitFor(/\[exit \d+\]/);

    expect(screen).toContain('Bought CLI Pro. The license is activated on this machine.');
    expect(screen).toContain('[exit 0]');
  });

  test('revoke asks first: "n" changes nothing (exit 1), "y" revokes', async () => {
    const config = shop.config;
    const grant = async () =>
      (await world.cli(config, ['seller', 'licenses', 'grant', '--product', shop.productId, '--email', 'tty@example.com', '--json'])).json().license.id as string;
    const [kept, revoked] = [await grant(), await grant()];

    const no = terminal(config, ['seller', 'licenses', 'revoke', kept]);
    await no.waitFor(/this cannot be undone\. \[y\/N\] $/m);
    no.enter('n');
    const refused = await no.waitFor(/\[exit \d+\]/);
    const yes = terminal(config, ['seller', 'licenses', 'revoke', revoked]);
    await yes.waitFor(/\[y\/N\] $/m);
    yes.enter('y');
    const done = await yes.waitFor(/\[exit \d+\]/);

    expect(refused).toContain('error: cancelled, nothing changed (cancelled)');
    expect(refused).toContain('[exit 1]');
    expect(done).toContain(`Revoked ${revoked}.`);
    expect(done).toContain('[exit 0]');
    expect((await world.cli(config, ['seller', 'licenses', 'show', kept, '--json'])).json().status).toBe('active');
  });

  test('api-keys revoke asks first too; --yes skips the question', async () => {
    const made = (await world.cli(shop.config, ['seller', 'api-keys', 'create', '--scope', 'publishable', '--json'])).json();
    const other = (await world.cli(shop.config, ['seller', 'api-keys', 'create', '--scope', 'publishable', '--json'])).json();

    const asked = terminal(shop.config, ['seller', 'api-keys', 'revoke', made.id]);
    await asked.waitFor(/\[y\/N\] $/m);
    asked.enter('yes');
    const answered = await asked.waitFor(/\[exit \d+\]/);
    const skipped = await terminal(shop.config, ['seller', 'api-keys', 'revoke', other.id, '--yes']).waitFor(/\[exit \d+\]/);

    expect(answered).toContain(`Revoked ${made.id} (publishable).`);
    expect(skipped).not.toContain('[y/N]');
    expect(skipped).toContain(`Revoked ${other.id} (publishable).`);
  });

  test('seller connect shows a live "Waiting…" line until the account is connected', async () => {
    const seller = await sellerWithProduct(world);
    const connect = terminal(seller.config, ['seller', 'connect', '--no-open']);

    const waiting = await connect.waitFor(/Waiting for the authorization in the browser… \d+:\d\d/);
    const url = /http\S+\/sandbox\/connect\/authorize\S+/.exec(waiting)![0];
    await connectSandbox(world, seller.apiKey, url);
    const screen = await connect.waitFor(/\[exit \d+\]/);

    expect(screen).toMatch(/^Connected \(\S+\)\.$/m);
    expect(screen).toContain('[exit 0]');
  });
});
