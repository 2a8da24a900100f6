import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { cliWorld, runCli, sellerWithProduct, type CliWorld } from './support.ts';

let world: CliWorld;
beforeAll(async () => {
  world = await cliWorld();
});
afterAll(async () => {
  await world.close();
});

/** The newest mail the sandbox kept for `to`, once the service's sender has sent it. */
async function keptMail(to: string, timeoutMs = 15_000): Promise<{ subject: string; text: string }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reply = await world.api('GET', `/sandbox/mail?to=${encodeURIComponent(to)}`);
    const [newest] = ((await reply.json()) as { data: { subject: string; text: string }[] }).data;
    if (newest) return newest;
    if (Date.now() > deadline) throw new Error(`no mail for ${to}`);
    await Bun.sleep(100);
  }
}

describe('the receipt’s activation command', () => {
  test('run as the mail prints it, the key piped in as the mail says, it activates the license on this machine', async () => {
    const seller = await sellerWithProduct(world);
    const grant = await world.cli(seller.config, ['seller', 'licenses', 'grant', '--product', seller.productId, '--email', 'receipt.buyer@example.com', '--json']);
    const licenseId = grant.json().license.id as string;

    const mail = await keptMail('receipt.buyer@example.com');
    const command = mail.text.split('\n').find((line) => line.startsWith('licensing activate '))!;
    const [, ...args] = command.split(' ');
    const licenseKey = grant.json().licenseKey as string;
    expect(command).not.toContain(licenseKey);
    const run = await runCli([...args, '--config', world.newConfig()], { stdin: `${licenseKey}\n` });
    expect(run.stderr).not.toContain('command line');

    expect(run.stderr + run.stdout).not.toContain('error');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Activated ${licenseId}`);
  }, 30_000);
});
