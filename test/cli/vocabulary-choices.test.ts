import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_KEY_SCOPES } from '../../src/domain/developer.ts';
import { LICENSE_STATUSES } from '../../src/domain/license.ts';
import { ORDER_STATUSES } from '../../src/domain/order.ts';
import { BILLING_INTERVALS } from '../../src/domain/product.ts';
import { runCli } from './support.ts';

/**
 * The CLI's choices are the domain's vocabularies: a value added there is offered here (in the
 * usage line and in the error that lists the choices) without editing the command.
 */

const dir = mkdtempSync(join(tmpdir(), 'licensing-cli-vocabulary-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const choices = (values: readonly string[]) => `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;

describe('a choice outside the domain vocabulary is a usage error naming every value of it', () => {
  test.each([
    ['seller licenses list --status', ['seller', 'licenses', 'list'], '--status', LICENSE_STATUSES],
    ['seller orders list --status', ['seller', 'orders', 'list'], '--status', ORDER_STATUSES],
    ['seller api-keys create --scope', ['seller', 'api-keys', 'create'], '--scope', API_KEY_SCOPES],
  ] as const)('%s', async (_name, command, flag, values) => {
    const run = await runCli([...command, flag, 'bogus', '--config', join(dir, 'config.json')]);

    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${flag} must be ${choices(values)}, not "bogus"`);
    expect(run.stderr).toContain(`${flag} ${values.join('|')}`);
  });

  test('seller products update --interval offers every billing interval and none', async () => {
    const run = await runCli(['seller', 'products', 'update', 'prod_1', '--interval', 'weekly', '--config', join(dir, 'config.json')]);

    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--interval must be ${choices([...BILLING_INTERVALS, 'none'])}`);
    expect(run.stderr).toContain(`--interval ${BILLING_INTERVALS.join('|')}|none`);
  });
});
