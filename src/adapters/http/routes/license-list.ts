import { listLicenses } from '../../../app/licenses/list-licenses.ts';
import type { Deps } from '../../../ports/deps.ts';
import { SECURITY, withSecretKey } from '../auth.ts';
import { EXAMPLE } from '../examples.ts';
import { DeveloperLicense, LicenseListQuery } from '../list-schemas.ts';
import { errorsOf } from '../schemas.ts';
import { t } from 'elysia';

const LicenseList = t.Object(
  { data: t.Array(DeveloperLicense), hasMore: t.Boolean({ description: 'More licenses after the last one: pass its id as startingAfter.' }) },
  {
    examples: [
      {
        data: [
          {
            id: EXAMPLE.licenseId,
            productId: EXAMPLE.productId,
            customerId: EXAMPLE.customerId,
            status: 'active',
            features: ['pro'],
            issuedAt: 1767225600000,
            expiresAt: null,
            machineFingerprint: EXAMPLE.machineFingerprint,
            customerEmail: EXAMPLE.buyerEmail,
            trial: false,
            subscriptionId: null,
          },
        ],
        hasMore: false,
      },
    ],
  },
);

/** GET /developers/licenses: the caller's own licenses, for support ("which license has this buyer?"). */
export function licenseListRoutes(deps: Deps) {
  return withSecretKey(deps).get('/developers/licenses', ({ caller, query }) => listLicenses(deps, caller.developerId, query), {
    query: LicenseListQuery,
    response: { 200: LicenseList, ...errorsOf(400, 401, 403) },
    detail: {
      tags: ['Licenses'],
      summary: 'List your licenses, newest first',
      description:
        'Every license of the caller (never another developer’s), newest first, each with its customer’s e-mail. Filters combine: productId, email (exact, case-insensitive), status (active, expired or revoked, as of now), trial, and the issue time [createdAfter, createdBefore). status=expired lists by expiry, most recently expired first. Cursor pagination: pass the last id as startingAfter while hasMore; pages neither skip nor repeat when licenses are issued meanwhile.',
      security: SECURITY.secret,
    },
  });
}
