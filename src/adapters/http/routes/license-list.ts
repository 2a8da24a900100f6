import { t } from 'elysia';
import { LICENSE_LIST_LIMIT, listLicenses } from '../../../app/licenses/list-licenses.ts';
import type { Deps } from '../../../ports/deps.ts';
import { SECURITY, withSecretKey } from '../auth.ts';
import { EXAMPLE } from '../examples.ts';
import { errorsOf, LicenseView } from '../schemas.ts';

/** Unknown parameters are ignored; bounds are checked by the use case, so its 400 names the field. */
const LicenseListQuery = t.Object(
  {
    limit: t.Optional(t.Integer({ description: `Page size, 1 to ${LICENSE_LIST_LIMIT.max} (default ${LICENSE_LIST_LIMIT.default}).`, examples: [20] })),
    startingAfter: t.Optional(t.String({ maxLength: 100, description: 'A license id (the last of the previous page): the page starts after it.' })),
    productId: t.Optional(t.String({ maxLength: 100, description: 'Only the licenses of this product.', examples: [EXAMPLE.productId] })),
    email: t.Optional(t.String({ maxLength: 254, description: 'Only the licenses of the customer with this e-mail (exact, case-insensitive).', examples: [EXAMPLE.buyerEmail] })),
  },
  { additionalProperties: true },
);

const DeveloperLicense = t.Composite([LicenseView, t.Object({ customerEmail: t.String({ description: 'The e-mail of the customer who holds it.' }) })]);

const LicenseList = t.Object(
  { data: t.Array(DeveloperLicense), hasMore: t.Boolean({ description: 'More licenses after the last one: pass its id as startingAfter.' }) },
  {
    examples: [
      {
        data: [
          {
            id: EXAMPLE.licenseId,
            productId: EXAMPLE.productId,
            customerId: 'cus_3Lm8QwT5zK1xVb7Rn2HdPc',
            status: 'active',
            features: ['pro'],
            issuedAt: 1767225600000,
            expiresAt: null,
            machineFingerprint: EXAMPLE.machineFingerprint,
            customerEmail: EXAMPLE.buyerEmail,
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
        'Every license of the caller (never another developer’s), newest first, each with its customer’s e-mail. Filters: productId, email (an exact, case-insensitive match). Cursor pagination: pass the last id as startingAfter while hasMore.',
      security: SECURITY.secret,
    },
  });
}
