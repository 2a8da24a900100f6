import { describe, expect, test } from 'bun:test';
import { machineFingerprint, productFingerprint } from '../../src/client/index.ts';
import { runCli } from './support.ts';

/** `licensing fingerprint`: the values an application of a product binds to here (docs/machine-files.md). */
describe('licensing fingerprint', () => {
  test('with --product: what the client library computes for that product, and the legacy fingerprint', async () => {
    const run = await runCli(['fingerprint', '--product', 'prod_abc', '--json']);
    expect(run.code).toBe(0);
    expect(run.json()).toEqual({ fingerprint: await productFingerprint('prod_abc'), productId: 'prod_abc', legacyFingerprint: await machineFingerprint() });
  });

  test('LICENSING_FINGERPRINT is honoured; without --product the legacy fingerprint is printed', async () => {
    const forced = await runCli(['fingerprint', '--product', 'prod_abc'], { env: { LICENSING_FINGERPRINT: 'ci-runner-7' } });
    expect(forced.stdout.trim()).toBe('ci-runner-7');
    const plain = await runCli(['fingerprint', '--json']);
    expect(plain.json()).toEqual({ fingerprint: await machineFingerprint(), legacyFingerprint: await machineFingerprint() });
  });
});
