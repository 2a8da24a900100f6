import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { buyInSandbox, cliWorld, connectSandbox, sellerWithProduct, type CliWorld } from './support.ts';

let world: CliWorld;
beforeAll(async () => {
  world = await cliWorld();
});
afterAll(async () => {
  await world.close();
});

type Shop = Awaited<ReturnType<typeof sellerWithProduct>>;

/** Grants through the API (the CLI's own grant is covered elsewhere): faster set-up, same server. */
async function grant(shop: Shop, email: string, extra: Record<string, unknown> = {}) {
  const reply = await world.api('POST', '/developers/licenses', { key: shop.apiKey, body: { productId: shop.productId, email, ...extra } });
  if (reply.status !== 201) throw new Error(`grant failed: ${reply.status} ${await reply.text()}`);
  return ((await reply.json()) as { license: { id: string; issuedAt: number; expiresAt: number | null } }).license;
}

const idsOf = (run: { json(): { data: { id: string }[] } }) => run.json().data.map((x) => x.id);

describe('licensing seller licenses list: status, trial and dates', () => {
  test('--status expired lists the most recently expired first; revoked and active are apart', async () => {
    const shop = await sellerWithProduct(world);
    const soon = Date.now() + 1_500;
    const first = await grant(shop, 'ann@example.com', { expiresAt: soon });
    const second = await grant(shop, 'bob@example.com', { expiresAt: soon + 100 });
    const revoked = await grant(shop, 'cy@example.com');
    await world.cli(shop.config, ['seller', 'licenses', 'revoke', revoked.id, '--yes']);
    while (Date.now() <= soon + 200) await Bun.sleep(100); // let both pass their expiry (real clock: real server)

    const expired = await world.cli(shop.config, ['seller', 'licenses', 'list', '--status', 'expired', '--json']);
    const gone = await world.cli(shop.config, ['seller', 'licenses', 'list', '--status', 'revoked']);
    const paid = await world.cli(shop.config, ['seller', 'licenses', 'list', '--trial', 'false', '--status', 'active', '--json']);

    expect(idsOf(expired)).toEqual([second.id, first.id]);
    expect(gone.stdout).toContain(revoked.id);
    expect(gone.stdout.trimEnd().split('\n')).toHaveLength(2);
    expect(paid.json()).toEqual({ data: [], hasMore: false });
  });

  test('--created-after (inclusive) takes an ISO date-time, --created-before (exclusive) milliseconds', async () => {
    const shop = await sellerWithProduct(world);
    const made = [];
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) {
      made.push(await grant(shop, email));
      await Bun.sleep(5); // distinct issue times
    }
    const middle = made[1]!.issuedAt;

    const after = await world.cli(shop.config, ['seller', 'licenses', 'list', '--created-after', new Date(middle).toISOString(), '--json']);
    const before = await world.cli(shop.config, ['seller', 'licenses', 'list', '--created-before', String(middle), '--json']);
    const aDayLater = await world.cli(shop.config, ['seller', 'licenses', 'list', '--created-after', new Date(middle + 86_400_000).toISOString().slice(0, 10)]);

    expect(idsOf(after)).toEqual([made[2]!.id, made[1]!.id]);
    expect(idsOf(before)).toEqual([made[0]!.id]);
    expect(aDayLater.stdout.trim()).toBe('No licenses match.');
  });

  test('the next-page line repeats the filters; bad values are usage errors (exit 2) before any request', async () => {
    const shop = await sellerWithProduct(world);
    for (const email of ['a@example.com', 'b@example.com']) await grant(shop, email);

    const first = await world.cli(shop.config, ['seller', 'licenses', 'list', '--status', 'active', '--trial', 'false', '--limit', '1']);
    const next = /More: licensing (seller licenses list --starting-after \S+ --status active --trial false --limit 1)$/.exec(first.stdout.trimEnd())?.[1];
    const second = await world.cli(shop.config, [...next!.split(' '), '--json']);
    const status = await world.cli(shop.config, ['seller', 'licenses', 'list', '--status', 'lapsed']);
    const date = await world.cli(shop.config, ['seller', 'licenses', 'list', '--created-after', 'last week']);

    expect(second.json()).toMatchObject({ hasMore: false, data: [expect.any(Object)] });
    expect(status.code).toBe(2);
    expect(status.stderr).toContain('--status must be active, expired or revoked');
    expect(date.code).toBe(2);
    expect(date.stderr).toContain('--created-after must be an ISO date');
  });
});

describe('licensing seller customers list', () => {
  test('customers with their licenses from this seller; --email is a prefix, any case', async () => {
    const shop = await sellerWithProduct(world);
    for (const email of ['ann@example.com', 'anna@example.com', 'bob@example.com', 'ann@example.com']) {
      await grant(shop, email);
      await Bun.sleep(5); // distinct first-seen times: the list is newest first
    }
    const other = await sellerWithProduct(world);
    await grant(other, 'ann@example.com');

    const all = await world.cli(shop.config, ['seller', 'customers', 'list']);
    const ann = await world.cli(shop.config, ['seller', 'customers', 'list', '--email', 'AN', '--json']);
    const none = await world.cli(shop.config, ['seller', 'customers', 'list', '--email', 'zed']);

    const [header, ...rows] = all.stdout.trimEnd().split('\n');
    expect(all.code).toBe(0);
    expect(header).toMatch(/^CUSTOMER\s+EMAIL\s+FIRST SEEN\s+LICENSES$/);
    expect(rows.map((row) => row.split(/\s+/)[1])).toEqual(['bob@example.com', 'anna@example.com', 'ann@example.com']);
    expect(rows[2]).toContain('2: CLI Pro active, CLI Pro active');
    expect(ann.json().data.map((c: { email: string }) => c.email)).toEqual(['ann@example.com', 'anna@example.com']);
    expect(ann.json().data[0].licenses).toHaveLength(2); // not the other seller's third
    expect(none.stdout.trim()).toBe('No customers whose e-mail starts with zed.');
  });

  test('one page at a time, the next-page line keeps the search', async () => {
    const shop = await sellerWithProduct(world);
    for (const email of ['a1@x.io', 'a2@x.io', 'b1@x.io']) await grant(shop, email);

    const first = await world.cli(shop.config, ['seller', 'customers', 'list', '--email', 'a', '--limit', '1']);
    const next = /More: licensing (seller customers list --starting-after \S+ --email a --limit 1)$/.exec(first.stdout.trimEnd())?.[1];
    const second = await world.cli(shop.config, [...next!.split(' '), '--json']);

    expect(second.json().data.map((c: { email: string }) => c.email)).toEqual(['a2@x.io']);
    expect(second.json().hasMore).toBe(false);
  });
});

describe('licensing seller orders list', () => {
  test('paid checkouts with amount, buyer and payment; filters by e-mail, status and product', async () => {
    const shop = await sellerWithProduct(world);
    await connectSandbox(world, shop.apiKey);
    await buyInSandbox(world, shop.publishableKey, shop.productId, 'ann@example.com');
    await buyInSandbox(world, shop.publishableKey, shop.productId, 'bob@example.com');
    const other = await sellerWithProduct(world);

    const all = await world.cli(shop.config, ['seller', 'orders', 'list']);
    const ann = await world.cli(shop.config, ['seller', 'orders', 'list', '--email', 'ANN@example.com', '--json']);
    const refunded = await world.cli(shop.config, ['seller', 'orders', 'list', '--status', 'refunded']);
    const foreign = await world.cli(shop.config, ['seller', 'orders', 'list', '--product', other.productId, '--json']);
    const theirs = await world.cli(other.config, ['seller', 'orders', 'list']);

    const [header, ...rows] = all.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^ORDER\s+DATE\s+PRODUCT\s+EMAIL\s+AMOUNT\s+STATUS\s+LICENSE\s+PAYMENT$/);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain('bob@example.com');
    expect(rows.every((row) => row.includes('CLI Pro') && row.includes('$19.99') && row.includes(' paid '))).toBe(true);
    expect(ann.json().data).toHaveLength(1);
    expect(ann.json().data[0]).toMatchObject({ customerEmail: 'ann@example.com', amount: 1999, currency: 'usd', processor: 'sandbox', status: 'paid' });
    expect(refunded.stdout.trim()).toBe('No orders match.');
    expect(foreign.json()).toEqual({ data: [], hasMore: false });
    expect(theirs.stdout.trim()).toBe('No orders yet.');
  });

  test('a bad --status or --created-before is a usage error (exit 2)', async () => {
    const shop = await sellerWithProduct(world);

    const status = await world.cli(shop.config, ['seller', 'orders', 'list', '--status', 'open']);
    const date = await world.cli(shop.config, ['seller', 'orders', 'list', '--created-before', '2026-13-45']);

    expect(status.code).toBe(2);
    expect(status.stderr).toContain('--status must be paid or refunded');
    expect(date.code).toBe(2);
  });
});

describe('licensing seller orders refund', () => {
  test('part, then the rest: the list shows what went back; the full refund revokes the license; bad amounts are usage errors', async () => {
    const shop = await sellerWithProduct(world);
    await connectSandbox(world, shop.apiKey);
    await buyInSandbox(world, shop.publishableKey, shop.productId, 'ann@example.com');
    const [order] = (await world.cli(shop.config, ['seller', 'orders', 'list', '--json'])).json().data as { id: string; licenseId: string }[];

    const part = await world.cli(shop.config, ['seller', 'orders', 'refund', order!.id, '--amount', '499', '--yes']);
    const listed = await world.cli(shop.config, ['seller', 'orders', 'list']);
    const rest = await world.cli(shop.config, ['seller', 'orders', 'refund', order!.id, '--yes', '--json']);
    const zero = await world.cli(shop.config, ['seller', 'orders', 'refund', order!.id, '--amount', '0', '--yes']);
    const license = await world.api('GET', `/licenses/${order!.licenseId}`, { key: shop.apiKey });

    expect(part.code).toBe(0);
    expect(part.stdout).toMatch(/refunded:\s+\$4\.99/);
    expect(listed.stdout).toContain('paid (refunded $4.99)');
    expect(rest.json()).toMatchObject({ id: order!.id, status: 'refunded', amountRefunded: 1999 });
    expect(((await license.json()) as { status: string }).status).toBe('revoked');
    expect(zero.code).toBe(2);
  });
});
