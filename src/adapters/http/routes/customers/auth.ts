import { Elysia } from 'elysia';
import { logout } from '../../../../app/auth/identity.ts';
import { startLogin, verifyLogin } from '../../../../app/auth/login.ts';
import { countFromAddress } from '../../../../app/limits/address-limits.ts';
import type { Deps } from '../../../../ports/deps.ts';
import { SECURITY, withCustomer } from '../../auth.ts';
import { clientAddress } from '../../client-address.ts';
import { errorsOf } from '../../schemas.ts';
import { CodeSent, LoggedOut, LoginInitBody, LoginVerifyBody, LoginVerified } from './schemas.ts';

const tags = ['Customers'];

/** A customer signs in with a code texted to their confirmed phone, or e-mailed: everything under /auth. */
export function customerAuthRoutes(deps: Deps) {
  return new Elysia({ name: 'customer-auth' })
    .post('/auth/login/init', async ({ body, request }) => {
      const address = clientAddress(request, deps.settings.trustedProxyHeader);
      await countFromAddress(deps, 'login', address);
      return startLogin(deps, { email: body.email, clientAddress: address });
    }, {
      body: LoginInitBody,
      response: { 200: CodeSent, ...errorsOf(400, 413, 429, 502) },
      detail: {
        tags,
        summary: 'Send a sign-in code: by text to a confirmed phone, else by e-mail',
        description:
          'A customer with a confirmed phone gets the code by text (by e-mail when that phone’s texts are used up, or where the service sends no texts); any other customer gets it by e-mail. An e-mail with no customer answers exactly like a known one (same fields, a stable masked phone, at least as long) and sends nothing; so does a customer without a phone: phoneMasked is then a keyed decoy, and the code is in the mailbox. Limits per e-mail: 3 codes per 15 minutes and 10 per day from each client address, 50 per day in all; 5 texts per 15 minutes and 20 per 24 hours per phone number across all kinds of codes; 60 requests per client address per hour by default (LOGIN_RATE_LIMIT_PER_HOUR) (429 rate_limited with Retry-After); 502 sms_failed or mail_failed when the code could not be sent (that code is never usable).',
        security: SECURITY.none,
      },
    })
    .post('/auth/login/verify', ({ body, request }) => verifyLogin(deps, { ...body, clientAddress: clientAddress(request, deps.settings.trustedProxyHeader) }), {
      body: LoginVerifyBody,
      response: { 200: LoginVerified, ...errorsOf(400, 410, 413, 422, 429) },
      detail: {
        tags,
        summary: 'Check the code: an identity token and the customer’s licenses',
        description:
          '422 otp_invalid for a wrong code (the challenge stays usable), an unknown or used challenge; 410 otp_expired after 5 minutes; 429 otp_attempts_exceeded after 5 tries (every try counts, the right code too); 429 rate_limited for an hour once 20 tries at live codes of this e-mail from this client address went without a success (tries at unknown, used or expired challenges do not count). Each code works once. The token is bound to deviceFingerprint and lasts 30 days.',
        security: SECURITY.none,
      },
    })
    .use(
      withCustomer(deps).post(
        '/auth/logout',
        async ({ customer }) => {
          await logout(deps, customer);
          return { loggedOut: true as const };
        },
        {
          response: { 200: LoggedOut, ...errorsOf(400, 401, 413) },
          detail: { tags, summary: 'Revoke this identity token', security: SECURITY.customer },
        },
      ),
    );
}
