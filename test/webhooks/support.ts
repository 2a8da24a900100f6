import { Webhook } from 'standardwebhooks';
import { HttpWebhookSender } from '../../src/adapters/webhooks/http-webhook-sender.ts';
import type { DeliverDeps } from '../../src/app/outgoing-webhooks/deliver.ts';
import type { Store } from '../../src/ports/deps.ts';
import { FixedClock } from '../support/clock.ts';
import { depsFor } from '../support/deps.ts';
import type { TableResolver } from '../support/host-resolver.ts';
import { testApi } from '../support/http.ts';

export interface Received {
  headers: Record<string, string>;
  body: string;
}

/**
 * A local receiver: records every request, answers with what `answer` says (a status, or a
 * Response, or never: a promise that does not settle). Listens on 127.0.0.1 only.
 */
export function receiver(answer: (n: number, request: Request) => number | Response | Promise<Response> = () => 200) {
  const received: Received[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: async (request) => {
      received.push({ headers: Object.fromEntries(request.headers), body: await request.text() });
      const reply = answer(received.length, request);
      return typeof reply === 'number' ? new Response(reply === 200 ? 'ok' : 'nope', { status: reply }) : reply;
    },
  });
  return { url: `http://127.0.0.1:${server.port}/hook`, received, stop: () => server.stop(true) };
}

/**
 * The HTTP app and an in-process sender over one store, both on a fixed clock set to the real time
 * (Standard Webhooks receivers refuse timestamps more than 5 minutes off theirs).
 */
export function webhookWorld(store: Store, options: { allowPrivate?: boolean; schedule?: number[]; timeoutMs?: number; resolver?: TableResolver } = {}) {
  const clock = new FixedClock(Date.now());
  const deps = depsFor(store, clock, { webhooks: { allowPrivateAddresses: options.allowPrivate ?? true } }, options.resolver);
  const api = testApi({ deps });
  const sender: DeliverDeps = {
    clock,
    outbox: store.outbox,
    secrets: deps.webhookSecrets,
    sender: new HttpWebhookSender({ timeoutMs: options.timeoutMs ?? 5_000, allowPrivateAddresses: options.allowPrivate ?? true, resolver: deps.hostResolver }),
    random: () => 0.5,
    schedule: options.schedule,
  };
  return { api, clock, deps, sender };
}

/** Verifies with the standardwebhooks package; throws when the signature or timestamp is wrong. */
export function verified(secret: string, message: Received): any {
  return new Webhook(secret).verify(message.body, message.headers);
}

/** Checks the signature alone, whatever the timestamp's age (for tests that move the clock by hours). */
export function signedBy(secret: string, message: Received): boolean {
  const id = message.headers['webhook-id']!;
  const seconds = Number(message.headers['webhook-timestamp']);
  const expected = new Webhook(secret).sign(id, new Date(seconds * 1000), message.body);
  return message.headers['webhook-signature']!.split(' ').includes(expected);
}
