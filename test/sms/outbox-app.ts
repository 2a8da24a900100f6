import { Elysia } from 'elysia';
import { toErrorResponse } from '../../src/adapters/http/errors.ts';
import { outboxRoutes } from '../../src/adapters/http/routes/sandbox/outbox.ts';
import { OutboxSmsSender } from '../../src/adapters/sandbox/outbox-sms-sender.ts';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts';
import { jsonLogger } from '../../src/adapters/system/logger.ts';
import { FixedClock } from '../support/clock.ts';

/** The outbox routes alone, with the service's own error mapping, over a SQLite outbox in memory. */
export function outboxApp() {
  const store = openSqliteStore(':memory:');
  const clock = new FixedClock();
  const sms = new OutboxSmsSender(store.smsOutbox, clock);
  const app = new Elysia({ prefix: '/v1' })
    .onError(({ code, error }) => toErrorResponse(code, error, jsonLogger('silent')))
    .use(outboxRoutes({ smsOutbox: store.smsOutbox }));
  const get = (path: string) => app.handle(new Request(`http://127.0.0.1/v1${path}`));
  return { sms, clock, get };
}
