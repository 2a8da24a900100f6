import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { cliWorld, connectSandbox, grantLicense, sellerWithProduct, startCli, type CliWorld } from './support.ts';

let world: CliWorld;
beforeAll(async () => {
  world = await cliWorld();
});
afterAll(async () => {
  await world.close();
});

/** A seller who granted licenses to ann (twice) and bob, in that order. */
async function sellerWithLicenses() {
  const shop = await sellerWithProduct(world);
  const grant = async (email: string) => (await grantLicense(world, shop.apiKey, shop.productId, email)).license.id;
  const ids = [await grant('ann@example.com'), await grant('bob@example.com'), await grant('ann@example.com')];
  return { ...shop, ids };
}

describe('licensing seller licenses list', () => {
  test('lists the seller’s licenses with the product’s name and the buyer’s e-mail', async () => {
    const { config, ids } = await sellerWithLicenses();

    const run = await world.cli(config, ['seller', 'licenses', 'list']);

    const [header, ...rows] = run.stdout.trimEnd().split('\n');
    expect(run.code).toBe(0);
    expect(header).toMatch(/^LICENSE\s+PRODUCT\s+EMAIL\s+STATUS\s+EXPIRES\s+FEATURES\s+MACHINE$/);
    expect(rows).toHaveLength(3);
    expect(rows.every((row) => row.includes('CLI Pro'))).toBe(true);
    expect(new Set(rows.map((row) => row.split(/\s+/)[0]))).toEqual(new Set(ids));
  });

  test('--email finds one buyer’s licenses, whatever the case', async () => {
    const { config, ids } = await sellerWithLicenses();

    const run = await world.cli(config, ['seller', 'licenses', 'list', '--email', 'ANN@example.com', '--json']);

    expect(run.code).toBe(0);
    expect(run.json().data.map((l: { id: string }) => l.id).sort()).toEqual([ids[0], ids[2]].sort());
    expect(run.json().data.every((l: { customerEmail: string }) => l.customerEmail === 'ann@example.com')).toBe(true);
  });

  test('one page at a time: the last line says how to get the next', async () => {
    const { config } = await sellerWithLicenses();

    const first = await world.cli(config, ['seller', 'licenses', 'list', '--limit', '2']);
    const next = /More: licensing (seller licenses list --starting-after \S+ --limit 2)$/.exec(first.stdout.trimEnd())?.[1];
    const second = await world.cli(config, [...next!.split(' '), '--json']);

    expect(next).toBeDefined();
    expect(second.json()).toMatchObject({ hasMore: false, data: [expect.any(Object)] });
  });

  test('another seller’s licenses are never listed, even for the same e-mail', async () => {
    await sellerWithLicenses();
    const other = await sellerWithProduct(world);

    const run = await world.cli(other.config, ['seller', 'licenses', 'list', '--email', 'ann@example.com']);

    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe('No licenses for ann@example.com.');
  });

  test('a malformed e-mail is the API’s 400 on one line (exit 1); a bad --limit is a usage error (exit 2)', async () => {
    const { config } = await sellerWithLicenses();

    const email = await world.cli(config, ['seller', 'licenses', 'list', '--email', 'ann']);
    const limit = await world.cli(config, ['seller', 'licenses', 'list', '--limit', '101']);

    expect(email.code).toBe(1);
    expect(email.stderr).toMatch(/^error: .*email.* \(invalid_request\)\n$/);
    expect(limit.code).toBe(2);
  });
});

describe('licensing seller licenses entitlements', () => {
  test('--set gives the license its own entitlements besides the product’s and prints the re-signed key; the same set again keeps it', async () => {
    const { config, ids } = await sellerWithLicenses();
    const before = (await world.cli(config, ['seller', 'licenses', 'show', ids[0]!, '--json'])).json();

    const run = await world.cli(config, ['seller', 'licenses', 'entitlements', ids[0]!, '--set', 'sync,PRO', '--json']);
    const again = await world.cli(config, ['seller', 'licenses', 'entitlements', ids[0]!, '--set', 'Sync', '--json']);
    const missing = await world.cli(config, ['seller', 'licenses', 'entitlements', ids[0]!]);

    expect(run.code).toBe(0);
    expect(run.json().license.features).toEqual(['pro', 'export', 'sync']);
    expect(run.json().licenseKey).not.toBe(before.licenseKey);
    expect(again.json().licenseKey).toBe(run.json().licenseKey);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('--set');
  });
});

describe('revoking asks first', () => {
  test('without a terminal and without --yes, revoke refuses (exit 2) and the license stays active', async () => {
    const { config, ids } = await sellerWithLicenses();

    const run = await world.cli(config, ['seller', 'licenses', 'revoke', ids[0]!]);
    const shown = (await world.cli(config, ['seller', 'licenses', 'show', ids[0]!, '--json'])).json();

    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--yes');
    expect(shown.status).toBe('active');
  });

  test('-y is --yes', async () => {
    const { config, ids } = await sellerWithLicenses();

    const run = await world.cli(config, ['seller', 'licenses', 'revoke', ids[0]!, '-y']);

    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Revoked ${ids[0]}.`);
  });
});

describe('licensing seller api-keys', () => {
  test('create shows the new key once; list shows it without the key; revoke --yes ends it', async () => {
    const { config } = await sellerWithProduct(world);

    const made = (await world.cli(config, ['seller', 'api-keys', 'create', '--scope', 'publishable', '--json'])).json();
    const listed = await world.cli(config, ['seller', 'api-keys', 'list']);
    const revoked = await world.cli(config, ['seller', 'api-keys', 'revoke', made.id, '--yes']);
    const after = (await world.cli(config, ['seller', 'api-keys', 'list', '--json'])).json();

    expect([made.id, made.scope, made.key]).toEqual([expect.stringMatching(/^key_/), 'publishable', expect.stringMatching(/^pk_/)]);
    expect(listed.stdout).toMatch(/^ID\s+SCOPE\s+CREATED\s+REVOKED$/m);
    expect(listed.stdout.includes(made.id)).toBe(true);
    expect(listed.stdout.includes(made.key)).toBe(false);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(`Revoked ${made.id} (publishable).`);
    expect(after.data.find((k: { id: string }) => k.id === made.id).revokedAt).toEqual(expect.any(Number));
  });

  test('revoke without --yes and without a terminal refuses (exit 2); the key keeps working', async () => {
    const { config, productId } = await sellerWithProduct(world);
    const made = (await world.cli(config, ['seller', 'api-keys', 'create', '--scope', 'secret', '--json'])).json();

    const run = await world.cli(config, ['seller', 'api-keys', 'revoke', made.id]);
    const stillWorks = await world.api('GET', '/developers/products', { key: made.key });

    expect(run.code).toBe(2);
    expect(stillWorks.status).toBe(200);
    expect(productId).toStartWith('prod_');
  });

  test('revoking the config file’s own secret key says what to do next', async () => {
    const { config, apiKey } = await sellerWithProduct(world);
    await world.cli(config, ['seller', 'api-keys', 'create', '--scope', 'secret']);
    // Newest first: the oldest secret key is the one signup made, which the config file holds.
    const keys = (await world.cli(config, ['seller', 'api-keys', 'list', '--json'])).json().data as { id: string; scope: string }[];
    const oldest = keys.filter((k) => k.scope === 'secret').at(-1)!.id;

    const run = await world.cli(config, ['seller', 'api-keys', 'revoke', oldest, '--yes']);

    expect(run.code).toBe(0);
    expect(run.stderr).toContain('licensing seller login" with another sk_… key');
    expect((await world.api('GET', '/developers/products', { key: apiKey })).status).toBe(401);
  });

  test('the last active secret key cannot be revoked: the API’s 409 on one line', async () => {
    const { config } = await sellerWithProduct(world);
    const secret = (await world.cli(config, ['seller', 'api-keys', 'list', '--json'])).json().data.find((k: { scope: string }) => k.scope === 'secret');

    const run = await world.cli(config, ['seller', 'api-keys', 'revoke', secret.id, '--yes']);

    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error: .+ \(conflict\)\n$/);
  });

  test('create needs --scope secret or publishable', async () => {
    const { config } = await sellerWithProduct(world);

    const missing = await world.cli(config, ['seller', 'api-keys', 'create']);
    const wrong = await world.cli(config, ['seller', 'api-keys', 'create', '--scope', 'admin']);

    expect([missing.code, wrong.code]).toEqual([2, 2]);
    expect(wrong.stderr).toContain('--scope must be secret or publishable');
  });
});

describe('licensing seller connect', () => {
  test('says it is waiting while it polls', async () => {
    const { config, apiKey } = await sellerWithProduct(world);
    const cli = startCli(['seller', 'connect', '--api-url', world.apiUrl, '--config', config]);

    const [url] = await cli.waitForStderr(/http\S+\/sandbox\/connect\/authorize\S+/);
    await cli.waitForStderr(/Waiting for the authorization in the browser…/);
    await connectSandbox(world, apiKey, url);
    const run = await cli.finished();

    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Connected \(\S+\)\.$/m);
  });
});
