import { Elysia, t } from 'elysia';
import { checkoutLease, heartbeatLease, LEASE_CHECKOUTS_PER_MINUTE, releaseLease } from '../../../../app/leases/holder-leases.ts';
import { licenseLeases, setLicenseLeaseTerms } from '../../../../app/leases/seller-leases.ts';
import { answerSigner } from '../../../../app/licenses/sign-answer.ts';
import { LEASE_ID_PATTERN, LEASE_LIMITS, LEASE_MESSAGES, type Lease } from '../../../../domain/lease.ts';
import type { Deps } from '../../../../ports/deps.ts';
import { SECURITY, withAnyApiKey, withSecretKey } from '../../auth.ts';
import { EXAMPLE } from '../../examples.ts';
import { errorsOf, IdParams, Input, Int, Millis, sellerGet } from '../../schemas.ts';
import { readNonce, signedAnswer, signedAnswerDetail } from '../../signed-answer.ts';
import { ActivateBody } from './schemas.ts';
import { holderCall } from './holder-call.ts';

/** Floating leases (docs/leases.md): the holder's checkout, heartbeat and release, and the seller's terms per license. */

const LEASE_EXAMPLE = { id: EXAMPLE.leaseId, machineFingerprint: EXAMPLE.machineFingerprint, createdAt: EXAMPLE.time, expiresAt: EXAMPLE.time + 600_000 };

const LeaseView = t.Object({
  id: t.String({ description: 'lease_…' }),
  machineFingerprint: t.String(),
  createdAt: Millis,
  expiresAt: Millis,
}, { examples: [LEASE_EXAMPLE] });

const LeaseReply = t.Object({
  lease: LeaseView,
  token: t.Optional(t.String({ description: 'Only for a borrowed lease: a compact JWS (typ licensing-answer+jws, op lease, the seller’s kid) whose payload is {lease:{id, licenseId, productId, machineFingerprint, expiresAt, borrowed:true}}; the client verifies it offline against the JWKS until expiresAt.' })),
}, { examples: [{ lease: LEASE_EXAMPLE }] });

const CheckoutBody = Input({
  licenseKey: ActivateBody.properties.licenseKey,
  machineFingerprint: ActivateBody.properties.machineFingerprint,
  productId: ActivateBody.properties.productId,
  borrowHours: t.Optional(Int({ minimum: 1, maximum: LEASE_LIMITS.maxBorrowHoursMax, description: 'Borrow the lease for offline use, 1 hour up to the license’s maxBorrowHours: no heartbeat is expected before it ends, and the answer carries a signed token.', 'x-error': `borrowHours must be a whole number of hours from 1 to ${LEASE_LIMITS.maxBorrowHoursMax}.` })),
}, { examples: [{ licenseKey: EXAMPLE.licenseKey, machineFingerprint: EXAMPLE.machineFingerprint, productId: EXAMPLE.productId }] });

const KeyBody = Input({ licenseKey: ActivateBody.properties.licenseKey, productId: ActivateBody.properties.productId }, { examples: [{ licenseKey: EXAMPLE.licenseKey, productId: EXAMPLE.productId }] });
const LeaseParams = Input({ id: t.String({ maxLength: 100, pattern: LEASE_ID_PATTERN, 'x-error': 'The lease id must be lease_ followed by letters and digits, as POST /licenses/leases answered it.', examples: [EXAMPLE.leaseId] }) });
const ReleaseReply = t.Object({ lease: t.Object({ id: t.String() }), released: t.Boolean({ description: 'false: this license had no such lease (already released, expired and swept, or never its own); nothing changed.' }) });

const Terms = t.Object({ maxLeases: t.Union([Int(), t.Null()]), leaseSeconds: Int(), maxBorrowHours: Int() });
const OwnTerms = t.Object({ maxLeases: t.Union([Int(), t.Null()]), leaseSeconds: t.Union([Int(), t.Null()]), maxBorrowHours: t.Union([Int(), t.Null()]) });
const LicenseLeasesView = t.Object({
  licenseId: t.String(),
  own: t.Object(OwnTerms.properties, { description: 'This license’s own terms; null = the product’s.' }),
  product: Terms,
  effective: t.Object(Terms.properties, { description: 'What applies: own where set, the product’s otherwise. maxLeases null or 0 = no leases.' }),
  live: t.Array(LeaseView, { description: 'Live leases, oldest first.' }),
});
const LeaseTermsBody = Input({
  maxLeases: t.Union([Int({ minimum: 0, maximum: LEASE_LIMITS.maxLeasesMax }), t.Null()], { description: 'Seats for this license, 0 (no leases) to 10000, or null for the product’s.', 'x-error': LEASE_MESSAGES.licenseMaxLeases }),
  leaseSeconds: t.Union([Int({ minimum: LEASE_LIMITS.leaseSecondsMin, maximum: LEASE_LIMITS.leaseSecondsMax }), t.Null()], { 'x-error': LEASE_MESSAGES.leaseSeconds }),
  maxBorrowHours: t.Union([Int({ minimum: 0, maximum: LEASE_LIMITS.maxBorrowHoursMax }), t.Null()], { 'x-error': LEASE_MESSAGES.maxBorrowHours }),
}, { examples: [{ maxLeases: 5, leaseSeconds: null, maxBorrowHours: null }] });

export const publicLease = ({ id, machineFingerprint, createdAt, expiresAt }: Lease) => ({ id, machineFingerprint, createdAt, expiresAt });

const HOLDER_DOC = ' Publishable or secret key; the license key is the proof. An unknown key, another seller’s, or one of a product not in productId: 404 not_found (counted like a validation, per address). A revoked or expired license: 409 conflict with details.reason.';

export function leaseRoutes(deps: Deps) {
  const sign = answerSigner(deps);
  const holder = withAnyApiKey(deps)
    .post('/licenses/leases', async ({ caller, body, request }) => {
      const nonce = readNonce(request);
      const { licenseKey, machineFingerprint, productId, borrowHours } = body;
      const { lease, created, license } = await checkoutLease(deps, holderCall(deps, caller.developerId, request, productId), { licenseKey, machineFingerprint, borrowHours });
      const answer: { lease: ReturnType<typeof publicLease>; token?: string } = { lease: publicLease(lease) };
      if (borrowHours) {
        const claims = { lease: { id: lease.id, licenseId: license.id, productId: license.productId, machineFingerprint, expiresAt: lease.expiresAt, borrowed: true } };
        answer.token = (await sign(caller.developerId, JSON.stringify(claims), { op: 'lease', machineFingerprint })).compact;
      }
      return signedAnswer(sign, request, caller.developerId, answer, { op: 'lease', nonce, machineFingerprint }, created ? 201 : 200);
    }, {
      body: CheckoutBody,
      response: { 200: LeaseReply, 201: LeaseReply, ...errorsOf(400, 401, 404, 409, 413, 429) },
      detail: signedAnswerDetail({
        tags: ['Leases'],
        summary: 'Check out a floating lease',
        description:
          `Takes one of the license’s maxLeases seats for machineFingerprint until expiresAt (now + leaseSeconds): 201 with the new lease, or 200 with this machine’s own live lease renewed (a machine never holds two). Full: 409 lease_limit with details.live and details.maxLeases. Leases off for this license (maxLeases null or 0): 409 conflict, details.reason leases_off. Expired leases count for nothing, swept or not. At most ${LEASE_CHECKOUTS_PER_MINUTE} checkouts per license a minute (429 rate_limited with Retry-After), and each is counted like a validation.` + HOLDER_DOC,
      }),
    })
    .post('/licenses/leases/:id/heartbeat', async ({ caller, body, params, request }) => {
      const nonce = readNonce(request);
      const lease = await heartbeatLease(deps, holderCall(deps, caller.developerId, request, body.productId), { licenseKey: body.licenseKey, leaseId: params.id });
      return signedAnswer(sign, request, caller.developerId, { lease: publicLease(lease) }, { op: 'lease_heartbeat', nonce, machineFingerprint: lease.machineFingerprint });
    }, {
      params: LeaseParams,
      body: KeyBody,
      response: { 200: LeaseReply, ...errorsOf(400, 401, 404, 409, 410, 413, 429) },
      detail: signedAnswerDetail({
        tags: ['Leases'],
        summary: 'Keep a lease alive',
        description:
          'Moves a live lease’s expiresAt to now + leaseSeconds in one conditional write. A lease past its expiresAt is not revived: 410 lease_expired, and the client checks out again (its seat may have gone to another machine). A lease id this license does not hold (another license’s, or none): 404 not_found. A borrowed lease is not extended (200 with its end unchanged). The signed header names the lease’s machineFingerprint.' + HOLDER_DOC,
      }),
    })
    .post('/licenses/leases/:id/release', async ({ caller, body, params, request }) => {
      const nonce = readNonce(request);
      const { released } = await releaseLease(deps, holderCall(deps, caller.developerId, request, body.productId), { licenseKey: body.licenseKey, leaseId: params.id });
      return signedAnswer(sign, request, caller.developerId, { lease: { id: params.id }, released }, { op: 'lease_release', nonce });
    }, {
      params: LeaseParams,
      body: KeyBody,
      response: { 200: ReleaseReply, ...errorsOf(400, 401, 404, 409, 413, 429) },
      detail: signedAnswerDetail({
        tags: ['Leases'],
        summary: 'Release a lease',
        description:
          'Frees the seat now (lease.released). Idempotent: released false when this license holds no lease with that id (already released, expired and swept, or another license’s), and nothing changes. A borrowed lease is not freed before its expiresAt: its signed token works offline until then, so its seat stays counted against maxLeases; 409 lease_borrowed with details.expiresAt, and nothing changes. A revoked or expired license may still release. Publishable or secret key; the license key is the proof; an unknown key: 404.',
      }),
    });
  const seller = withSecretKey(deps)
    .get('/licenses/:id/leases', async ({ caller, params }) => viewLeases(await licenseLeases(deps, caller.developerId, params.id)), sellerGet(IdParams, LicenseLeasesView, { tags: ['Leases'], summary: 'A license’s lease terms and live leases', description: 'Another seller’s license: 404.' }))
    .put('/licenses/:id/lease-terms', async ({ caller, params, body }) => viewLeases(await setLicenseLeaseTerms(deps, caller.developerId, params.id, body)), {
      params: IdParams,
      body: LeaseTermsBody,
      response: { 200: LicenseLeasesView, ...errorsOf(400, 401, 403, 404, 413) },
      detail: {
        tags: ['Leases'], security: SECURITY.secret, summary: 'Set a license’s own lease terms',
        description: 'All three fields; null = the product’s. maxLeases 0 turns leases off for this license. Lowered below the live count, live leases run to their end (no heartbeat is refused); no new one fits until enough end. Another seller’s license: 404.',
      },
    });
  return new Elysia({ name: 'leases' }).use(holder).use(seller);
}

const viewLeases = (l: Awaited<ReturnType<typeof licenseLeases>>) => ({ ...l, live: l.live.map(publicLease) });
