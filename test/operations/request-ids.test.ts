import { expect, test } from 'bun:test';
import { recordRoute, serverFetch } from '../../src/adapters/http/request-route.ts';
import { jsonLogger } from '../../src/adapters/system/logger.ts';
import { ServiceMetrics } from '../../src/adapters/system/metrics.ts';

test('a request that escapes the app still answers the contract JSON with its id, logged under it, and is counted', async () => {
  const lines: string[] = [];
  const metrics = new ServiceMetrics();
  const fetch = serverFetch((request) => {
    recordRoute(request, '/v1/boom');
    jsonLogger('info', (l) => lines.push(l)).warn('inside the request');
    throw new Error('secret detail');
  }, jsonLogger('info', (l) => lines.push(l)), true, metrics);
  const response = await fetch(new Request('http://localhost:3000/v1/boom', { headers: { 'x-request-id': 'abc.123' } }));
  expect(response.status).toBe(500);
  expect(response.headers.get('x-request-id')).toBe('abc.123');
  expect(await response.json()).toEqual({ error: { code: 'internal_error', message: 'Something went wrong on our side.', requestId: 'abc.123' } });
  const logged = lines.map((l) => JSON.parse(l));
  expect(logged.map((l) => [l.msg, l.requestId])).toEqual([['inside the request', 'abc.123'], ['unhandled error', 'abc.123'], ['request', 'abc.123']]);
  expect(lines.join('')).not.toContain('secret detail');
  // Outside a request, no id.
  jsonLogger('info', (l) => lines.push(l)).info('idle');
  expect(JSON.parse(lines.at(-1)!).requestId).toBeUndefined();
  expect(await metrics.text()).toContain('http_request_duration_seconds_count{method="GET",route="/v1/boom",status="500"} 1');
});

test('backup age appears once a backup is recorded', async () => {
  const metrics = new ServiceMetrics();
  expect(await metrics.text()).not.toMatch(/^backup_age_seconds /m);
  metrics.backupCompleted(Date.now() - 90_000);
  const age = Number((await metrics.text()).match(/^backup_age_seconds (\S+)$/m)![1]);
  expect(age).toBeGreaterThanOrEqual(90);
  expect(age).toBeLessThan(600);
});
