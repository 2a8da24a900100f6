import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { freePort } from '../support/server-process.ts';
import { cliWorld, runCli, sellerWithProduct, type CliWorld } from './support.ts';

let world: CliWorld;
beforeAll(async () => {
  world = await cliWorld();
});
afterAll(async () => {
  await world.close();
});

describe('usage errors exit 2 with one error line and the usage', () => {
  test.each([
    ['an unknown command', ['frobnicate']],
    ['an unknown subcommand', ['seller', 'products', 'delete']],
    ['an unknown option', ['status', '--colour']],
    ['an option without its value', ['seller', 'signup', '--name', 'A', '--email']],
    ['a missing required option', ['seller', 'signup', '--email', 'a@example.com']],
    ['a missing argument', ['activate']],
    ['an extra argument', ['seller', 'licenses', 'revoke', 'lic_1', 'lic_2']],
    ['a malformed number', ['seller', 'products', 'create', '--name', 'A', '--price', '1', '--currency', 'usd', '--license-days', 'ten']],
    ['a malformed boolean', ['seller', 'products', 'update', 'prod_1', '--active', 'maybe']],
    ['a malformed date', ['seller', 'licenses', 'grant', '--product', 'p', '--email', 'e@example.com', '--expires-at', 'tomorrow']],
    ['a malformed API URL', ['status', '--api-url', 'not a url']],
  ])('%s', async (_name, args) => {
    const run = await runCli([...args, '--config', world.newConfig()]);

    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error: .+ \(usage\)\n/);
    expect(run.stderr).not.toContain('    at ');
  });

  test('with --json a usage error is also one JSON document on stdout', async () => {
    const run = await runCli(['seller', 'signup', '--json', '--config', world.newConfig()]);

    expect(run.code).toBe(2);
    expect(run.json()).toEqual({ error: { code: 'usage', message: 'missing --email <email>' }, exitCode: 2 });
  });

  test('a bare group prints its commands on stderr and exits 2; with --help on stdout and exits 0', async () => {
    const bare = await runCli(['seller', 'licenses']);
    const help = await runCli(['seller', 'licenses', '--help']);

    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('seller licenses grant');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('seller licenses revoke');
  });
});

describe('did you mean', () => {
  test.each([
    [['stauts'], 'licensing status'],
    [['byu'], 'licensing buy'],
    [['seller', 'prodcts', 'list'], 'licensing seller products list'],
    [['seller', 'licenses', 'lst'], 'licensing seller licenses list'],
    [['seller', 'api-key', 'create'], 'licensing seller api-keys create'],
  ])('%p suggests "%s" (exit 2)', async (args, suggestion) => {
    const run = await runCli([...args, '--config', world.newConfig()]);

    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`(did you mean "${suggestion}"?)`);
  });

  test('nothing close: no suggestion, just the help hint', async () => {
    const run = await runCli(['frobnicate', '--config', world.newConfig()]);

    expect(run.stderr).toBe('error: unknown command "frobnicate"; run "licensing --help" (usage)\n');
  });
});

describe('help and version', () => {
  test('--help lists the buyer and seller commands and documents every exit code', async () => {
    const run = await runCli(['--help']);

    expect(run.code).toBe(0);
    for (const command of ['login', 'licenses', 'buy', 'activate', 'status', 'logout', 'seller signup', 'seller connect', 'seller jwks']) {
      expect(run.stdout).toContain(`  ${command} `);
    }
    for (const code of [0, 1, 2, 3, 4, 5]) expect(run.stdout).toMatch(new RegExp(`^  ${code}  \\S`, 'm'));
  });

  test('-h after a command shows that command’s usage', async () => {
    const run = await runCli(['seller', 'products', 'create', '-h']);

    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: licensing seller products create --name <name> --price <19.99> --currency <usd>');
  });

  test('--version prints the package version', async () => {
    const { version } = await Bun.file(`${import.meta.dir}/../../package.json`).json();

    const run = await runCli(['--version']);

    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(version);
  });
});

describe('the API address', () => {
  test('an unreachable API exits 5 with one clean line naming it', async () => {
    const url = `http://127.0.0.1:${await freePort()}/v1`;

    const run = await runCli(['seller', 'signup', '--email', 'a@example.com', '--name', 'A', '--api-url', url, '--config', world.newConfig()]);

    expect(run.code).toBe(5);
    expect(run.stderr).toBe(`error: cannot reach the licensing API at ${url} (network_unreachable)\n`);
  });

  test('LICENSING_API_URL is used when --api-url is not given, with or without /v1', async () => {
    const config = world.newConfig();

    const run = await runCli(['seller', 'signup', '--email', `e-${crypto.randomUUID()}@example.com`, '--name', 'Env', '--config', config, '--json'], {
      env: { LICENSING_API_URL: `${world.server.url}/` },
    });

    expect(run.code).toBe(0);
    expect(run.json().apiKey).toStartWith('sk_');
  });

  test('an API error answer is one line with its code, exit 1; --json carries it too', async () => {
    const { config } = await sellerWithProduct(world);

    const run = await world.cli(config, ['seller', 'licenses', 'revoke', 'lic_doesnotexist', '--yes', '--json']);

    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^error: .+ \(not_found\)\n$/);
    expect(run.json().error.code).toBe('not_found');
  });

  test('a config file that is not JSON is a clear error, not a crash', async () => {
    const config = `${world.dir}/broken.json`;
    await Bun.write(config, '{ nope');

    const run = await runCli(['status', '--config', config]);

    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`error: the config file ${config} is not a JSON object; fix or delete it (config_invalid)\n`);
  });
});
