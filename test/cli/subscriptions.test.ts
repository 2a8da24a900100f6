import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { buyInSandbox, cliWorld, connectSandbox, latestCode, sellerWithProduct, uniqueCardNumber, type CliWorld } from './support.ts';

/**
 * `licensing subscriptions`, `licensing cancel` and `licensing resume` for a logged-in buyer,
 * against the real service: a monthly product bought in the sandbox checkout.
 */
let world: CliWorld;
let shop: Awaited<ReturnType<typeof sellerWithProduct>>;
let monthly: string;
beforeAll(async () => {
  world = await cliWorld();
  shop = await sellerWithProduct(world);
  await connectSandbox(world, shop.apiKey);
  const product = await world.api('POST', '/developers/products', { key: shop.apiKey, body: { name: 'CLI Monthly', price: 900, currency: 'usd', interval: 'month' } });
  monthly = ((await product.json()) as { id: string }).id;
});
afterAll(async () => {
  await world.close();
});

/** A buyer who subscribed in the sandbox and logged in with the CLI (own config). */
async function subscriber() {
  const email = `subscriber-${crypto.randomUUID()}@example.com`;
  await buyInSandbox(world, shop.publishableKey, monthly, email, uniqueCardNumber());
  const config = world.newConfig();
  await world.cli(config, ['login', '--email', email]);
  const login = await world.cli(config, ['login', '--otp', await latestCode(world), '--json']);
  if (login.code !== 0) throw new Error(`login: ${login.stderr}`);
  const listed = (await world.cli(config, ['subscriptions', '--json'])).json();
  return { config, id: listed.data[0].id as string };
}

const sellerView = async (id: string) =>
  (await (await fetch(`${world.apiUrl}/developers/subscriptions/${id}`, { headers: { 'x-api-key': shop.apiKey } })).json()) as { cancelAtPeriodEnd: boolean };

describe('licensing subscriptions', () => {
  test('lists the buyer’s subscriptions with seller, price and next charge', async () => {
    const { config, id } = await subscriber();

    const json = await world.cli(config, ['subscriptions', '--json']);
    const human = await world.cli(config, ['subscriptions']);

    expect(json.code).toBe(0);
    expect(json.json().data).toEqual([expect.objectContaining({ id, productName: 'CLI Monthly', sellerName: 'CLI Seller', status: 'active', amount: 900, currency: 'usd', cancelAtPeriodEnd: false })]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(new RegExp(`${id}\\s+CLI Monthly\\s+CLI Seller\\s+active\\s+\\$9\\.00/month\\s+charges \\d{4}-\\d\\d-\\d\\d`));
  });

  test('without a login: exit 4, pointing to licensing login', async () => {
    const run = await world.cli(world.newConfig(), ['subscriptions']);
    expect(run.code).toBe(4);
    expect(run.stderr).toContain('licensing login');
  });
});

describe('licensing cancel and resume', () => {
  test('cancel asks for --yes without a terminal, then cancels at period end; resume undoes it', async () => {
    const { config, id } = await subscriber();

    const refused = await world.cli(config, ['cancel', id]);
    const canceled = await world.cli(config, ['cancel', id, '--yes']);
    const afterCancel = await sellerView(id);
    const listed = await world.cli(config, ['subscriptions']);
    const resumed = await world.cli(config, ['resume', id]);

    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect(canceled.code).toBe(0);
    expect(canceled.stdout).toContain(`Canceled CLI Monthly (${id}): no further charge`);
    expect(afterCancel.cancelAtPeriodEnd).toBe(true);
    expect(listed.stdout).toMatch(/ends \d{4}-\d\d-\d\d/);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain(`Resumed CLI Monthly (${id}): charges`);
    expect((await sellerView(id)).cancelAtPeriodEnd).toBe(false);
  });

  test('someone else’s or an unknown subscription: exit 1 with the API’s not_found', async () => {
    const mine = await subscriber();
    const other = await subscriber();

    const run = await world.cli(mine.config, ['cancel', other.id, '--yes', '--json']);
    const unknown = await world.cli(mine.config, ['resume', 'sub_doesnotexist']);

    expect(run.code).toBe(1);
    expect(run.stderr).toContain('not_found');
    expect(unknown.code).toBe(1);
    expect((await sellerView(other.id)).cancelAtPeriodEnd).toBe(false);
  });
});
