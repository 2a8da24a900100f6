import { checkIdempotencyKey, IDEMPOTENCY_HEADER, IDEMPOTENCY_LIMITS, IdempotencyKeyReusedError, outcomeFor, type IdempotencyOutcome } from '../../domain/idempotency.ts';
import type { Deps } from '../../ports/deps.ts';
import { heldClaim, withClaim, type HeldClaim, type LinkedKind } from '../store/idempotency/idempotency-claim.ts';
import { errorResponse } from './errors.ts';
import { requestDigest, scopeOf, type ScopeCtx } from './idempotency-scope.ts';

type IdempotencyDeps = Pick<Deps, 'clock' | 'idempotencyKeys' | 'keptAnswers' | 'settings'>;

/** What the hooks read of a route's context. */
interface Ctx extends ScopeCtx {
  route: string;
  body?: unknown;
  params?: unknown;
  set: { status?: number | string };
}

/**
 * How a route answers again from what its write created, when the first request died after the
 * write committed but before its answer was kept: the object's kind (as the store links it), the
 * status of the route's success, and the answer rebuilt from the object's id (null: not found).
 */
export interface Rebuild {
  kind: LinkedKind;
  status: number;
  answer(objectId: string, ctx: ScopeCtx): Promise<unknown>;
}

interface Held extends HeldClaim {
  heartbeat: ReturnType<typeof setInterval>;
}

const held = new WeakMap<Request, Held>();

/** Errors a retry could answer differently (state, limits): not kept, so the retry runs. */
const TRANSIENT_STATUSES = new Set([408, 409, 429]);

function stored(status: number, body: string, replayed: boolean): Response {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (replayed) headers['idempotent-replayed'] = 'true';
  return new Response(body, { status, headers });
}

function inProgress(): Response {
  const response = errorResponse(409, 'conflict', `A request with this ${IDEMPOTENCY_HEADER} is in progress; retry shortly.`);
  response.headers.set('retry-after', String(IDEMPOTENCY_LIMITS.retryAfterSeconds));
  return response;
}

async function textOf(value: unknown): Promise<string> {
  return value instanceof Response ? value.clone().text() : JSON.stringify(value ?? null);
}

/** Holds the claim: refreshed while the request runs, so only a dead process's claim goes stale. */
function hold(deps: IdempotencyDeps, request: Request, claim: HeldClaim): void {
  const beat = () => deps.idempotencyKeys.heartbeat(claim.scope, claim.key, deps.clock.now()).catch(() => {});
  const heartbeat = setInterval(beat, IDEMPOTENCY_LIMITS.heartbeatMs);
  heartbeat.unref?.();
  held.set(request, { ...claim, heartbeat });
}

/** The answer to a key whose first request linked its object but kept no answer: rebuilt, kept, replayed. */
async function rebuilt(deps: IdempotencyDeps, ctx: ScopeCtx, claim: HeldClaim, outcome: Extract<IdempotencyOutcome, { kind: 'rebuild' }>, rebuild?: Rebuild): Promise<Response> {
  if (!rebuild || rebuild.kind !== outcome.objectKind) return inProgress();
  const answer = await rebuild.answer(outcome.objectId, ctx);
  if (answer === null || answer === undefined) return inProgress();
  const body = JSON.stringify(answer);
  await deps.idempotencyKeys.complete(claim.scope, claim.key, rebuild.status, deps.keptAnswers.seal(body));
  return stored(rebuild.status, body, true);
}

/** Claims a new key (undefined: run the handler), or answers for a key already held. */
async function answerKnownKey(deps: IdempotencyDeps, ctx: Ctx, rebuild?: Rebuild): Promise<Response | undefined> {
  const header = ctx.request.headers.get(IDEMPOTENCY_HEADER);
  if (header === null) return;
  const key = checkIdempotencyKey(header);
  const route = `${ctx.request.method} ${ctx.route}`;
  const scope = scopeOf(ctx, route, deps.settings.trustedProxyHeader);
  const digest = requestDigest(ctx.params, ctx.body);
  const now = deps.clock.now();
  const claim = { scope, key, route, digest, createdAt: now, expiresAt: now + IDEMPOTENCY_LIMITS.ttlMs };
  const existing = await deps.idempotencyKeys.claim(claim, now - IDEMPOTENCY_LIMITS.lostAfterMs);
  if (existing === null) {
    hold(deps, ctx.request, { scope, key });
    return;
  }
  const outcome = outcomeFor(existing, { route, digest });
  if (outcome.kind === 'reused') throw new IdempotencyKeyReusedError();
  if (outcome.kind === 'in_progress') return inProgress();
  if (outcome.kind === 'rebuild') return rebuilt(deps, ctx, { scope, key }, outcome, rebuild);
  return stored(outcome.status, deps.keptAnswers.unseal(outcome.body), true);
}

/**
 * Runs a handler's work with the request's claim visible to the store, whose write of the guarded
 * object links the key to it in the same transaction (routes that pass a Rebuild to idempotent()).
 */
export function underKey<T>(request: Request, run: () => T): T {
  const claim = held.get(request);
  return withClaim(claim && { scope: claim.scope, key: claim.key }, run);
}

/**
 * For a handler under underKey whose write leaves nothing to rebuild its answer from: the answer,
 * sealed, goes with the claim, and the store keeps it in that write's own transaction.
 */
export function keepAnswerWithWrite(deps: Pick<Deps, 'keptAnswers'>, status: number, answer: unknown): void {
  const claim = heldClaim();
  if (claim) claim.answer = { status, body: deps.keptAnswers.seal(JSON.stringify(answer)) };
}

const HOOKS = new WeakSet<object>();

function marked<F extends object>(hook: F): F {
  HOOKS.add(hook);
  return hook;
}

/** Whether a route's hooks (as Elysia lists them) include idempotent()'s: the OpenAPI document lists the header there. */
export function takesIdempotencyKey(hooks: { beforeHandle?: unknown } | undefined): boolean {
  const before = hooks?.beforeHandle;
  const list = Array.isArray(before) ? before : before ? [before] : [];
  return list.some((hook) => HOOKS.has((hook as { fn?: object }).fn ?? (hook as object)));
}

/** The header as an OpenAPI parameter, declared once under components.parameters. */
export const IDEMPOTENCY_PARAMETER = {
  name: IDEMPOTENCY_HEADER,
  in: 'header' as const,
  required: false,
  description:
    'Makes a retry safe (as Stripe does): 1–255 printable ASCII characters, unique per request you mean. The same key with the same request within 24 hours answers the first answer again (header Idempotent-Replayed: true) with no second effect; with another body, path or route it is 422 idempotency_key_reused; while the first is still running, 409 conflict with Retry-After: 1. Failures on our side (5xx) and 409/429 refusals are not kept: retry with the same key. After a crash of the server, a retry answers what the first request wrote (replayed), or runs once the lost request has been silent 10 seconds; never a second object. Keys are per caller: two sellers never collide; under a publishable key, per route and client address.',
  schema: { type: 'string' as const, minLength: 1, maxLength: IDEMPOTENCY_LIMITS.keyMaxLength, examples: ['3f1c9a2e-order-1042'] },
};

/** Keeps the answer to a claimed key, or gives the key back when a retry could fare otherwise. */
async function settle(deps: IdempotencyDeps, request: Request, status: number, body: () => Promise<string>): Promise<void> {
  const claim = held.get(request);
  if (!claim) return;
  held.delete(request);
  clearInterval(claim.heartbeat);
  if (status >= 500 || TRANSIENT_STATUSES.has(status)) await deps.idempotencyKeys.release(claim.scope, claim.key);
  else await deps.idempotencyKeys.complete(claim.scope, claim.key, status, deps.keptAnswers.seal(await body()));
}

/**
 * For the server's error hook (route-local error hooks do not run once it answers): a request that
 * claimed a key and failed keeps its error answer when a retry would hear the same (a 4xx such as
 * 404 or 402), and gives the key back otherwise (5xx, 409, 429).
 */
export function settleFailure(deps: IdempotencyDeps, request: Request, answer: Response): Promise<void> {
  return settle(deps, request, answer.status, () => answer.clone().text());
}

/**
 * Stripe's Idempotency-Key, as hooks for a route that creates or charges (spread into its options):
 * the first request with a key claims it in the store (one winner, however many race) and its
 * answer is kept 24 hours; the same key and request again answers it again with
 * `Idempotent-Replayed: true` and no second effect; another request with the key is 422
 * idempotency_key_reused; one still running is 409 with Retry-After. A failure on our side (5xx, an
 * unexpected error) or a transient refusal (409, 429) gives the key back, so a retry runs; a
 * failure is settled by the server's error hook (settleFailure).
 */
export function idempotent(deps: IdempotencyDeps, rebuild?: Rebuild) {
  return {
    // Elysia types a hook's answer by the route's response schemas, which cannot name a kept answer
    // replayed as a Response: the one cast, in one place.
    beforeHandle: marked(((ctx: Ctx) => answerKnownKey(deps, ctx, rebuild)) as (ctx: Ctx) => Promise<void>),

    async afterHandle(ctx: Ctx & { responseValue?: unknown }): Promise<void> {
      const value = ctx.responseValue;
      const status = value instanceof Response ? value.status : typeof ctx.set.status === 'number' ? ctx.set.status : 200;
      await settle(deps, ctx.request, status, () => textOf(value));
    },

  };
}
