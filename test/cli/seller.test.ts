import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync, statSync } from 'node:fs';
import { cliWorld, connectSandbox, sellerWithProduct, startCli, type CliWorld } from './support.ts';

let world: CliWorld;
beforeAll(async () => {
  world = await cliWorld();
});
afterAll(async () => {
  await world.close();
});

describe('licensing seller', () => {
  test('signup prints both keys once and keeps the secret key in an owner-only config file', async () => {
    const config = world.newConfig();

    const run = await world.cli(config, ['seller', 'signup', '--email', `s-${crypto.randomUUID()}@example.com`, '--name', 'Acme']);

    expect(run.code).toBe(0);
    const sk = /sk_\S+/.exec(run.stdout)?.[0];
    expect(run.stdout).toMatch(/Publishable key:\s+pk_\S+/);
    expect(sk).toBeDefined();
    expect(JSON.parse(readFileSync(config, 'utf8')).seller.apiKey).toBe(sk!);
    expect(statSync(config).mode & 0o777).toBe(0o600);
  });

  test('a taken e-mail is the API error on one line, exit 1', async () => {
    const config = world.newConfig();
    const email = `taken-${crypto.randomUUID()}@example.com`;
    await world.cli(config, ['seller', 'signup', '--email', email, '--name', 'First']);

    const run = await world.cli(world.newConfig(), ['seller', 'signup', '--email', email, '--name', 'Second']);

    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toMatch(/^error: .+ \(email_taken\)$/);
  });

  test('products create converts the price to minor units of its currency', async () => {
    const { config } = await sellerWithProduct(world);

    const usd = (await world.cli(config, ['seller', 'products', 'create', '--name', 'A', '--price', '19.99', '--currency', 'usd', '--json'])).json();
    const jpy = (await world.cli(config, ['seller', 'products', 'create', '--name', 'B', '--price', '500', '--currency', 'JPY', '--json'])).json();
    const kwd = (await world.cli(config, ['seller', 'products', 'create', '--name', 'C', '--price', '1.5', '--currency', 'kwd', '--license-days', '30', '--json'])).json();

    expect([usd.price, jpy.price, kwd.price]).toEqual([1999, 500, 1500]);
    expect([jpy.currency, kwd.licenseDays, usd.licenseDays]).toEqual(['jpy', 30, null]);
  });

  test('a price with more decimals than the currency has is a usage error (exit 2), nothing is created', async () => {
    const { config } = await sellerWithProduct(world);

    const run = await world.cli(config, ['seller', 'products', 'create', '--name', 'X', '--price', '5.5', '--currency', 'jpy']);
    const list = (await world.cli(config, ['seller', 'products', 'list', '--json'])).json();

    expect(run.code).toBe(2);
    expect(run.stderr).toContain('JPY has no decimal places');
    expect(list.data.map((p: { name: string }) => p.name)).toEqual(['CLI Pro']);
  });

  test('products list shows aligned columns with the price as people read it', async () => {
    const { config } = await sellerWithProduct(world);
    await world.cli(config, ['seller', 'products', 'create', '--name', 'Team edition', '--price', '120', '--currency', 'eur', '--license-days', '365']);

    const run = await world.cli(config, ['seller', 'products', 'list']);

    const [header, first, second] = run.stdout.trimEnd().split('\n');
    expect(run.code).toBe(0);
    expect(header).toMatch(/^ID\s+NAME\s+PRICE\s+FEATURES\s+TERM\s+ACTIVE$/);
    expect(first).toContain('$19.99');
    expect(second).toContain('€120.00');
    expect(second).toContain('365 days');
    expect(first!.indexOf('$19.99')).toBe(header!.indexOf('PRICE'));
  });

  test('products update changes only what is given; a price alone keeps the product’s currency', async () => {
    const { config, productId } = await sellerWithProduct(world);

    const updated = (await world.cli(config, ['seller', 'products', 'update', productId, '--price', '24.5', '--active', 'false', '--json'])).json();

    expect(updated).toMatchObject({ id: productId, name: 'CLI Pro', price: 2450, currency: 'usd', active: false, features: ['pro', 'export'] });
  });

  test('products create and update sell subscriptions and trials: --interval, --grace-days, --trial-days', async () => {
    const { config } = await sellerWithProduct(world);

    const monthly = (await world.cli(config, ['seller', 'products', 'create', '--name', 'M', '--price', '9', '--currency', 'usd', '--interval', 'month', '--trial-days', '14', '--json'])).json();
    const yearly = (await world.cli(config, ['seller', 'products', 'update', monthly.id, '--interval', 'year', '--grace-days', '7', '--trial-days', 'none', '--json'])).json();
    const listed = await world.cli(config, ['seller', 'products', 'list']);
    const refused = await world.cli(config, ['seller', 'products', 'create', '--name', 'W', '--price', '9', '--currency', 'usd', '--interval', 'week']);
    const apiRefused = await world.cli(config, ['seller', 'products', 'create', '--name', 'X', '--price', '9', '--currency', 'usd', '--interval', 'month', '--license-days', '30']);

    expect(monthly).toMatchObject({ interval: 'month', graceDays: 3, trialDays: 14, licenseDays: null });
    expect(yearly).toMatchObject({ id: monthly.id, interval: 'year', graceDays: 7, trialDays: null });
    expect(listed.stdout).toContain('yearly (+7 days grace)');
    expect([refused.code, refused.stderr]).toEqual([2, expect.stringContaining('--interval must be month, year or none')]);
    expect(apiRefused.code).toBe(1);
    expect(apiRefused.stderr).toContain('licenseDays must be null when interval is set');
  });

  test('licenses grant, show, unbind and revoke a license by id', async () => {
    const { config, productId } = await sellerWithProduct(world);
    const grant = (await world.cli(config, ['seller', 'licenses', 'grant', '--product', productId, '--email', 'b@example.com', '--expires-at', '2099-01-01', '--json'])).json();

    const shown = (await world.cli(config, ['seller', 'licenses', 'show', grant.license.id, '--json'])).json();
    const unbound = await world.cli(config, ['seller', 'licenses', 'unbind', grant.license.id]);
    const revoked = (await world.cli(config, ['seller', 'licenses', 'revoke', grant.license.id, '--yes', '--json'])).json();

    expect(grant.licenseKey.split('.')).toHaveLength(3);
    expect(shown).toMatchObject({ id: grant.license.id, status: 'active', expiresAt: Date.parse('2099-01-01'), features: ['pro', 'export'] });
    expect(unbound.stdout).toContain(`Unbound ${grant.license.id}.`);
    expect(revoked.status).toBe('revoked');
  });

  test('jwks prints the JWK Set the license keys verify against', async () => {
    const { config } = await sellerWithProduct(world);

    const jwks = JSON.parse((await world.cli(config, ['seller', 'jwks'])).stdout);

    expect(jwks.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519' });
  });

  test('keys rotate publishes the next key, newest first, signing in 7 days; --compromised retires the signing key at once', async () => {
    const { config } = await sellerWithProduct(world);

    const rotated = (await world.cli(config, ['seller', 'keys', 'rotate', '--json'])).json();
    const jwks = (await world.cli(config, ['seller', 'jwks', '--json'])).json();
    const emergency = (await world.cli(config, ['seller', 'keys', 'rotate', '--compromised', '--json'])).json();
    const after = (await world.cli(config, ['seller', 'jwks', '--json'])).json();

    expect(jwks.keys.map((k: { kid: string; status: string }) => [k.kid, k.status])).toEqual([[rotated.kid, 'next'], [jwks.keys[1].kid, 'current']]);
    expect(rotated.notBefore - Date.now()).toBeGreaterThan(6 * 86_400_000);
    expect(emergency).toMatchObject({ status: 'current', compromised: [rotated.kid, jwks.keys[1].kid] });
    expect(after.keys.map((k: { status: string }) => k.status)).toEqual(['current', 'compromised', 'compromised']);
  });

  test('login reads the secret key from standard input and saves it (0600); a wrong key is exit 4', async () => {
    const { apiKey } = await sellerWithProduct(world);
    const config = world.newConfig();

    const good = await world.cli(config, ['seller', 'login'], { stdin: `${apiKey}\n` });
    const list = (await world.cli(config, ['seller', 'products', 'list', '--json'])).json();
    const bad = await world.cli(world.newConfig(), ['seller', 'login'], { stdin: 'sk_not_a_real_key\n' });

    expect(good.code).toBe(0);
    expect(`${good.stdout}${good.stderr}`).not.toContain(apiKey);
    expect(JSON.parse(readFileSync(config, 'utf8')).seller.apiKey).toBe(apiKey);
    expect(statSync(config).mode & 0o777).toBe(0o600);
    expect(list.data).toHaveLength(1);
    expect(bad.code).toBe(4);
    expect(bad.stderr.trim()).toMatch(/^error: .+ \(unauthorized\)$/);
  });

  test('login takes LICENSING_SECRET_KEY too, before standard input', async () => {
    const { apiKey } = await sellerWithProduct(world);
    const config = world.newConfig();

    const run = await world.cli(config, ['seller', 'login', '--json'], { env: { LICENSING_SECRET_KEY: apiKey }, stdin: 'sk_ignored\n' });

    expect(run.code).toBe(0);
    expect(run.json()).toMatchObject({ loggedIn: true });
    expect(JSON.parse(readFileSync(config, 'utf8')).seller.apiKey).toBe(apiKey);
  });

  test('a key on the command line is refused (exit 2) without being repeated, and nothing is saved or sent', async () => {
    const { apiKey } = await sellerWithProduct(world);
    const config = world.newConfig();

    const runs = [
      await world.cli(config, ['seller', 'login', '--api-key', apiKey]),
      await world.cli(config, ['seller', 'login', `--api-key=${apiKey}`, '--json']),
      await world.cli(config, ['seller', 'login', apiKey]),
      // Even with a good key on stdin: the flag alone is refused.
      await world.cli(config, ['seller', 'login', '--api-key', apiKey], { stdin: `${apiKey}\n` }),
      // A mistyped command does not repeat it either.
      await world.cli(config, ['seller', 'logn', apiKey]),
    ];

    for (const run of runs) {
      expect(run.code).toBe(2);
      expect(`${run.stdout}${run.stderr}`).not.toContain(apiKey.slice(3));
    }
    expect(runs[0]!.stderr).toContain('--api-key is not accepted');
    expect(runs[0]!.stderr).toContain('LICENSING_SECRET_KEY');
    expect(runs[2]!.stderr).toContain('keys are never taken from the command line');
    expect(() => statSync(config)).toThrow();
  });

  test('no key anywhere, or something that is not a secret key: exit 2 naming where a key may come from', async () => {
    const none = await world.cli(world.newConfig(), ['seller', 'login']);
    const publishable = await world.cli(world.newConfig(), ['seller', 'login'], { stdin: 'pk_test_shown_value\n' });

    expect(none.code).toBe(2);
    expect(none.stderr).toContain('standard input');
    expect(none.stderr).toContain('LICENSING_SECRET_KEY');
    expect(publishable.code).toBe(2);
    expect(publishable.stderr).toContain('is not a secret key');
    expect(publishable.stderr).not.toContain('pk_test_shown_value');
  });

  test('connect --no-wait prints the authorize URL; once authorized, connect says so', async () => {
    const { config, apiKey } = await sellerWithProduct(world);

    const started = (await world.cli(config, ['seller', 'connect', '--no-wait', '--json'])).json();
    await connectSandbox(world, apiKey);
    const after = (await world.cli(config, ['seller', 'connect', '--json'])).json();

    expect(new URL(started.url).pathname).toBe('/v1/sandbox/connect/authorize');
    expect(after.connected).toBe(true);
  });

  test('connect waits, polling, until the seller has authorized at the printed URL', async () => {
    const { config, apiKey } = await sellerWithProduct(world);
    const cli = startCli(['seller', 'connect', '--api-url', world.apiUrl, '--config', config]);

    const [url] = await cli.waitForStderr(/http\S+\/sandbox\/connect\/authorize\S+/);
    await connectSandbox(world, apiKey, url);
    const run = await cli.finished();

    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Connected \(\S+\)\.$/m);
  });

  test('signup never overwrites a secret key already in the config file', async () => {
    const { config, apiKey } = await sellerWithProduct(world);

    const run = await world.cli(config, ['seller', 'signup', '--email', `other-${crypto.randomUUID()}@example.com`, '--name', 'Other']);

    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/already holds the secret key of .+ \(seller_exists\)\n$/);
    expect(JSON.parse(readFileSync(config, 'utf8')).seller.apiKey).toBe(apiKey);
  });

  test('seller commands without a seller key exit 4 and say what to run', async () => {
    const run = await world.cli(world.newConfig(), ['seller', 'products', 'list']);

    expect(run.code).toBe(4);
    expect(run.stderr).toContain('licensing seller signup');
  });
});
