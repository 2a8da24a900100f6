import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startServer, type RunningServer } from '../support/server-process.ts';
import { E2E_STORES } from './stores.ts';
import { licenseStory, type Story } from './story.ts';
import { client, lines } from './support.ts';

describe.each(E2E_STORES)('what the process logs during the license story, on $name', (setup) => {
  const data = setup.open();
  let server: RunningServer;
  let story: Story;
  let output: string;
  let stdout: string;

  beforeAll(async () => {
    server = await startServer({ ...data.env, LOG_LEVEL: 'info' });
    const call = client(server.url);
    story = await licenseStory(call);
    // Secrets in a query string must not reach the log either.
    await call('GET', `/developers/products?limit=1&apiKey=${story.developer.apiKey}`, { key: story.developer.apiKey });
    await server.stop('SIGTERM');
    output = server.output();
    stdout = server.stdout();
  });

  afterAll(async () => {
    if (server?.proc.exitCode === null) await server.stop('SIGKILL');
    await data.dispose();
  });

  test('every line on stdout is a JSON object with time, level and msg; stderr holds only the start-up line', () => {
    const printed = lines(stdout);
    const human = lines(output).filter((line) => !printed.includes(line));

    expect(human).toEqual([expect.stringContaining('/v1/docs')]);

    expect(printed.length).toBeGreaterThan(0);
    for (const line of printed) {
      const entry = JSON.parse(line);
      expect(typeof entry.time).toBe('string');
      expect(Number.isNaN(Date.parse(entry.time))).toBe(false);
      expect(['debug', 'info', 'warn', 'error']).toContain(entry.level);
      expect(typeof entry.msg).toBe('string');
    }
  });

  test('no API key and no license key appears in the output', () => {
    const [header, payload, signature] = story.licenseKey.split('.');

    expect(story.steps.afterRevoke.body.reason).toBe('revoked'); // the story really ran
    expect(output).not.toContain(story.developer.apiKey);
    expect(output).not.toContain(story.developer.publishableKey);
    expect(output).not.toContain(`${header}.${payload}`);
    expect(output).not.toContain(signature!);
  });

  test('no private key material appears in the output', async () => {
    const masterKey = data.masterKey();
    const sealed = await data.sealedPrivateKeys();

    expect(masterKey).not.toBe('');
    expect(sealed.length).toBeGreaterThan(0);
    expect(output).not.toContain(masterKey);
    for (const k of sealed) expect(output).not.toContain(k);
    expect(output).not.toContain('PRIVATE KEY');
  });

  test('request lines carry method, path and status, and never a query string', () => {
    const requests = lines(stdout).map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'request');

    expect(requests.length).toBeGreaterThanOrEqual(10);
    for (const entry of requests) {
      expect(entry.method).toMatch(/^[A-Z]+$/);
      expect(entry.path).toStartWith('/v1/');
      expect(entry.path).not.toContain('?');
      expect(Number.isInteger(entry.status)).toBe(true);
    }
    expect(requests).toContainEqual(expect.objectContaining({ method: 'POST', path: '/v1/licenses/validate', status: 200 }));
    expect(requests).toContainEqual(expect.objectContaining({ method: 'GET', path: '/v1/developers/products', status: 200 }));
    expect(output).not.toContain('limit=1');
  });
});
