import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { cliWorld, sellerWithProduct, type CliWorld } from './support.ts';

let world: CliWorld;
beforeAll(async () => {
  world = await cliWorld();
});
afterAll(async () => {
  await world.close();
});

/** A seller (own config) grants a key by hand; a buyer (own config) gets it. */
async function grantedKey(productBy: 'api' | 'cli' = 'api') {
  const seller = await sellerWithProduct(world, undefined, productBy);
  const grant = await world.cli(seller.config, ['seller', 'licenses', 'grant', '--product', seller.productId, '--email', 'buyer@example.com', '--json']);
  const issued = grant.json();
  return { ...seller, licenseKey: issued.licenseKey as string, licenseId: issued.license.id as string, buyer: world.newConfig() };
}

describe('licensing activate and status, non-interactive', () => {
  test('seller signup → product → grant → buyer activate → status: valid, bound, exit 0', async () => {
    const { licenseKey, licenseId, productId, publishableKey, buyer } = await grantedKey('cli');

    const activate = await world.cli(buyer, ['activate', licenseKey, '--publishable-key', publishableKey]);
    const status = await world.cli(buyer, ['status']);

    expect(activate.code).toBe(0);
    expect(activate.stdout).toContain(`Activated ${licenseId}`);
    expect(status.code).toBe(0);
    const row = status.stdout.split('\n').find((line) => line.includes(licenseId));
    expect(row).toMatch(/\bvalid\b.*\bonline\b.*\bbound\b/);
    expect(JSON.parse(readFileSync(buyer, 'utf8')).licenses[productId].licenseKey).toBe(licenseKey);
  });

  test('activate reads the key from standard input or LICENSING_LICENSE_KEY, never echoing it; none at all: exit 2 naming where it may come from', async () => {
    const { licenseKey, licenseId, publishableKey } = await grantedKey();

    const piped = await world.cli(world.newConfig(), ['activate', '--publishable-key', publishableKey], { stdin: `${licenseKey}\n` });
    const fromEnv = await world.cli(world.newConfig(), ['activate', '--publishable-key', publishableKey], { env: { LICENSING_LICENSE_KEY: licenseKey } });
    const none = await world.cli(world.newConfig(), ['activate', '--publishable-key', publishableKey]);

    for (const run of [piped, fromEnv]) {
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
      expect(run.stdout).toContain(`Activated ${licenseId}`);
      expect(run.stdout).not.toContain(licenseKey);
    }
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('LICENSING_LICENSE_KEY');
    expect(none.stderr).toContain('standard input');
  });

  test('a key on the command line is still accepted, with a warning on stderr that says why and what to do instead', async () => {
    const { licenseKey, licenseId, publishableKey } = await grantedKey();

    const run = await world.cli(world.newConfig(), ['activate', licenseKey, '--publishable-key', publishableKey]);

    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Activated ${licenseId}`);
    expect(run.stderr).toContain('shell history');
    expect(run.stderr).toContain('LICENSING_LICENSE_KEY');
    expect(run.stderr).not.toContain(licenseKey);
  });

  test('after the seller revokes, status says revoked and exits 3', async () => {
    const { config, licenseKey, licenseId, publishableKey, buyer } = await grantedKey();
    await world.cli(buyer, ['activate', licenseKey, '--publishable-key', publishableKey]);

    await world.cli(config, ['seller', 'licenses', 'revoke', licenseId, '--yes']);
    const status = await world.cli(buyer, ['status', '--json']);

    expect(status.code).toBe(3);
    expect(status.json()).toMatchObject({ valid: false, licenses: [{ valid: false, reason: 'revoked', offlineVerified: false }] });
  });

  test('status --json is one document with the check result of each activated license', async () => {
    const { licenseKey, licenseId, productId, publishableKey, buyer } = await grantedKey();
    await world.cli(buyer, ['activate', licenseKey, '--publishable-key', publishableKey]);

    const status = await world.cli(buyer, ['status', '--json']);

    expect(status.json()).toEqual({
      valid: true,
      licenses: [
        {
          productId,
          licenseId,
          valid: true,
          offlineVerified: false,
          machineBound: true,
          machineFingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
          license: expect.objectContaining({ id: licenseId, productId, status: 'active', features: ['pro', 'export'] }),
        },
      ],
    });
  });

  test('with the API unreachable, status trusts the offline verification (signature from the stored JWKS)', async () => {
    const { licenseKey, publishableKey, buyer } = await grantedKey();
    await world.cli(buyer, ['activate', licenseKey, '--publishable-key', publishableKey]);

    const status = await world.cli(buyer, ['status', '--json'], { apiUrl: 'http://127.0.0.1:9/v1' });

    expect(status.code).toBe(0);
    expect(status.json().licenses[0]).toMatchObject({ valid: true, offlineVerified: true });
  });

  test('a key from another machine is refused on activation with machine_mismatch, exit 3, and not kept', async () => {
    const { licenseKey, licenseId, productId, publishableKey, buyer, developerId } = await grantedKey();
    // Bound elsewhere first: the API's validate with another fingerprint.
    await world.api('POST', '/licenses/validate', { key: publishableKey, body: { licenseKey, machineFingerprint: 'f'.repeat(64) } });

    const activate = await world.cli(buyer, ['activate', licenseKey, '--publishable-key', publishableKey, '--developer', developerId, '--json']);

    expect(activate.code).toBe(3);
    expect(activate.json()).toMatchObject({ activated: false, productId, valid: false, reason: 'machine_mismatch' });
    expect(JSON.parse(readFileSync(buyer, 'utf8')).licenses?.[productId]).toBeUndefined();
    expect(licenseId).toStartWith('lic_');
  });

  test('activating something that is not a license key exits 3 with invalid_format', async () => {
    const run = await world.cli(world.newConfig(), ['activate', '--publishable-key', 'pk_x'], { stdin: 'not-a-key\n' });

    expect(run.code).toBe(3);
    expect(run.stderr.trim()).toBe('error: that is not a license key (invalid_format)');
  });

  test('activate without a publishable key exits 4 and names the flag and the variable', async () => {
    const { licenseKey } = await grantedKey();

    const run = await world.cli(world.newConfig(), ['activate', licenseKey]);

    expect(run.code).toBe(4);
    expect(run.stderr).toContain('--publishable-key');
    expect(run.stderr).toContain('LICENSING_PUBLISHABLE_KEY');
  });

  test('the publishable key may come from LICENSING_PUBLISHABLE_KEY; status remembers it', async () => {
    const { licenseKey, publishableKey, buyer } = await grantedKey();

    const activate = await world.cli(buyer, ['activate', licenseKey], { env: { LICENSING_PUBLISHABLE_KEY: publishableKey } });
    const status = await world.cli(buyer, ['status']);

    expect([activate.code, status.code]).toEqual([0, 0]);
  });

  test('status with nothing activated exits 4', async () => {
    const run = await world.cli(world.newConfig(), ['status']);

    expect(run.code).toBe(4);
    expect(run.stderr).toContain('licensing activate');
  });
});
