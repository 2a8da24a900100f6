import { Elysia } from 'elysia';
import { issueMachineFile, issueMachineFileForCustomer, issueMachineFileForSeller, type IssuedMachineFile } from '../../../../app/machine-files/issue-machine-file.ts';
import { listMachineFiles } from '../../../../app/machine-files/list-machine-files.ts';
import { MACHINE_FILE_LIMITS } from '../../../../domain/machine-file.ts';
import type { Deps } from '../../../../ports/deps.ts';
import { SECURITY, withAnyApiKey, withCustomer, withSecretKey } from '../../auth.ts';
import { errorsOf, IdParams } from '../../schemas.ts';
import { CustomerLicenseParams, IssuedMachineFile as IssuedSchema, MachineFileBody, MachineFileList, MachineFileListQuery } from './machine-file-schemas.ts';
import { scopeOf } from './schemas.ts';
import { publicActivation } from './views.ts';
import { holderCall } from './holder-call.ts';

const tags = ['Machine files'];
const FILE_DOC = `The file is a compact JWS (alg EdDSA, typ licensing-machine-file+jws, kid from GET /developers/{id}/jwks.json) whose claims are the license id, product, features, the SHA-256 of the machine fingerprint, issuedAt, expiresAt (ttlDays: default ${MACHINE_FILE_LIMITS.defaultTtlDays}, at least one hour, at most ${MACHINE_FILE_LIMITS.maxTtlDays} days, never past the license’s end) and the license’s own end. The client library verifies it with no network (docs/machine-files.md). The machine takes an activation slot as POST /licenses/activate does (an already bound machine keeps its own; full: 409 activation_limit; revoked or expired: 409 conflict). At most ${MACHINE_FILE_LIMITS.perDay} files per license in any 24 hours, counted by the store with the insert: past it 429 rate_limited with Retry-After. Every file issued is listed at GET /licenses/{id}/machine-files.`;

const answer = ({ machineFile, file, activation }: IssuedMachineFile) => ({ machineFile, file, activation: publicActivation(activation) });

/** Machine files for offline machines: the holder's request and the seller's (docs/machine-files.md). */
export function machineFileRoutes(deps: Deps) {
  const holder = withAnyApiKey(deps).post('/licenses/machine-file', async ({ caller, body, request, set }) => {
    const { licenseKey, machineFingerprint, legacyFingerprint, productId, ttlDays } = body;
    set.status = 201;
    return answer(await issueMachineFile(deps, holderCall(deps, caller.developerId, request, productId), { licenseKey, machineFingerprint, legacyFingerprint, ttlDays }));
  }, {
    body: MachineFileBody,
    response: { 201: IssuedSchema, ...errorsOf(400, 401, 404, 409, 413, 429) },
    detail: {
      tags, security: SECURITY.any, summary: 'Check out a machine file (offline use)',
      description: `Publishable or secret key, the license key as proof (counted like a validation). An unknown key, another seller’s, or one of a product not in productId: 404 not_found. ${FILE_DOC}`,
    },
  });

  const seller = withSecretKey(deps)
    .post('/licenses/:id/machine-files', async ({ caller, params, body, set }) => {
      const { licenseKey, machineFingerprint, productId, ttlDays } = body;
      set.status = 201;
      return answer(await issueMachineFileForSeller(deps, caller.developerId, params.id, { licenseKey, machineFingerprint, ttlDays, productIds: scopeOf(productId) }));
    }, {
      params: IdParams,
      body: MachineFileBody,
      response: { 201: IssuedSchema, ...errorsOf(400, 401, 403, 404, 409, 413, 429) },
      detail: {
        tags, security: SECURITY.secret, summary: 'Issue a machine file from an offline request file',
        description: `For a machine with no network: the buyer sends you the offline request file its application wrote (JSON: licenseKey, machineFingerprint, productId), and your server posts it here as it is (ttlDays may be added). The key must be this license’s current key; otherwise, or for another seller’s license, 404. ${FILE_DOC}`,
      },
    })
    .get('/licenses/:id/machine-files', ({ caller, params, query }) => listMachineFiles(deps, caller.developerId, params.id, query), {
      params: IdParams,
      query: MachineFileListQuery,
      response: { 200: MachineFileList, ...errorsOf(400, 401, 403, 404) },
      detail: {
        tags, security: SECURITY.secret, summary: 'A license’s machine files',
        description: 'Every machine file issued for the license, newest first: id, the SHA-256 of the machine fingerprint, issuedAt, expiresAt. Another seller’s license: 404. Cursor pagination: pass the last id as startingAfter while hasMore.',
      },
    });

  const buyer = withCustomer(deps).post('/customer/licenses/:id/machine-file', async ({ customer, params, body, set }) => {
    const { licenseKey, machineFingerprint, legacyFingerprint, productId, ttlDays } = body;
    set.status = 201;
    return answer(await issueMachineFileForCustomer(deps, customer.customerId, params.id, { licenseKey, machineFingerprint, legacyFingerprint, ttlDays, productIds: scopeOf(productId) }));
  }, {
    params: CustomerLicenseParams,
    body: MachineFileBody,
    response: { 201: IssuedSchema, ...errorsOf(400, 401, 404, 409, 413, 429) },
    detail: {
      tags, security: SECURITY.customer, summary: 'Make a machine file for one of your offline machines',
      description: `The buyer's portal (GET /v1/account) for a machine with no network: the signed-in customer pastes the offline request file the application wrote there (JSON: licenseKey, machineFingerprint, productId) and carries the answer back. The key must be the current key of this license, one of the customer's own; otherwise 404. ${FILE_DOC}`,
    },
  });

  return new Elysia({ name: 'machine-files' }).use(holder).use(seller).use(buyer);
}
