import { t } from 'elysia';
import { runSandboxBilling } from '../../../../app/subscriptions/sandbox-clock.ts';
import { RENEWAL_OUTCOMES } from '../../../../domain/subscription.ts';
import type { Deps } from '../../../../ports/deps.ts';
import { sandboxRenewalPays } from '../../../sandbox/sandbox-subscriptions.ts';
import { SECURITY, withSecretKey } from '../../auth.ts';
import { errorsOf } from '../../schemas.ts';
import { literalUnion } from '../../vocabulary.ts';

const DAY_MS = 86_400_000;
const MAX_ADVANCE_DAYS = 3660;

const ClockBody = t.Object(
  {
    // Strict: t.Integer would also take "31" and convert it (see Int in schemas.ts).
    advanceDays: t.Number({
      multipleOf: 1,
      minimum: 0,
      maximum: MAX_ADVANCE_DAYS,
      'x-error': `advanceDays must be a whole number of days from 0 to ${MAX_ADVANCE_DAYS}.`,
      description: 'Days to move your sandbox billing clock forward (0 = bill what is due now).',
      examples: [31],
    }),
  },
  { additionalProperties: true, examples: [{ advanceDays: 31 }] },
);

const ClockReply = t.Object(
  {
    now: t.Integer({ description: 'Your sandbox billing clock after the move (ms): the real time plus your offset.' }),
    offsetMs: t.Integer({ description: 'How far ahead of the real time your sandbox billing clock is.' }),
    billed: t.Array(
      t.Object({
        subscriptionId: t.String(),
        outcome: literalUnion(RENEWAL_OUTCOMES),
        periods: t.Integer({ description: 'Periods paid in this run.' }),
      }),
    ),
  },
  { examples: [{ now: 1769904000000, offsetMs: 2678400000, billed: [{ subscriptionId: 'sub_7Hq2LmN4pR8sT1vW3xY5zA', outcome: 'renewed', periods: 1 }] }] },
);

/**
 * The sandbox's billing clock, one per developer and per process (it starts at the real time): moving
 * it bills the caller's sandbox subscriptions whose period ended, as Stripe's renewals would.
 */
export function sandboxClockRoutes(deps: Deps) {
  const offsets = new Map<string, number>();
  return withSecretKey(deps).post(
    '/sandbox/clock',
    async ({ caller, body }) => {
      const offsetMs = (offsets.get(caller.developerId) ?? 0) + body.advanceDays * DAY_MS;
      offsets.set(caller.developerId, offsetMs);
      const now = deps.clock.now() + offsetMs;
      const billed = await runSandboxBilling(deps, caller.developerId, now, sandboxRenewalPays);
      return { now, offsetMs, billed };
    },
    {
      body: ClockBody,
      response: { 200: ClockReply, ...errorsOf(400, 401, 403, 413) },
      detail: {
        tags: ['Sandbox'],
        summary: 'Move your sandbox billing clock (subscriptions)',
        description:
          'Sandbox mode only. Moves the caller’s billing clock forward and bills every sandbox subscription of theirs whose period ended: a paid period extends its license (a fresh key, the old one still validates and hands it over), a card saved as 4000 0000 0000 0341 fails (past_due: the license runs to its paid end plus grace), a subscription cancelled at period end ends. Licenses are still validated against the real time.',
        security: SECURITY.secret,
      },
    },
  );
}
