import { Elysia } from 'elysia';
import { logout } from '../../../../app/auth/identity.ts';
import { startLogin, verifyLogin } from '../../../../app/auth/login.ts';
import { confirmPhoneLink, startPhoneLink } from '../../../../app/customers/phone-link.ts';
import { countFromAddress } from '../../../../app/limits/address-limits.ts';
import type { Deps } from '../../../../ports/deps.ts';
import { SECURITY, withCustomer } from '../../auth.ts';
import { clientAddress } from '../../client-address.ts';
import { errorsOf } from '../../schemas.ts';
import { CodeSent, LoggedOut, LoginInitBody, LoginVerifyBody, LoginVerified, PhoneLinkBody, PhoneLinkVerified, PhoneLinkVerifyBody } from './schemas.ts';

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
    .post('/auth/phone-link', async ({ body, request }) => {
      await countFromAddress(deps, 'login', clientAddress(request, deps.settings.trustedProxyHeader));
      return startPhoneLink(deps, body);
    }, {
      body: PhoneLinkBody,
      response: { 200: CodeSent, ...errorsOf(400, 409, 410, 413, 429, 502) },
      detail: {
        tags,
        summary: 'Receipt link: text a code to the phone the checkout gave',
        description:
          'A paid checkout’s receipt, mailed to a customer with no confirmed phone, links to the account page with a token (after #phone-link=). Opening it proves the e-mail; this texts a code to the phone the checkout gave, to confirm it as the sign-in phone. 400 invalid_request for a token that is malformed or forged, or whose card is gone; 410 otp_expired 7 days after the receipt; 409 conflict once the customer has a confirmed phone (the link works once); 409 sms_unavailable where the service sends no texts; 429 rate_limited beyond 3 codes per link per 15 minutes, the per-phone and per-customer text limits, and the per-address sign-in limit; 502 sms_failed.',
        security: SECURITY.none,
      },
    })
    .post('/auth/phone-link/verify', ({ body }) => confirmPhoneLink(deps, body), {
      body: PhoneLinkVerifyBody,
      response: { 200: PhoneLinkVerified, ...errorsOf(400, 409, 410, 413, 422, 429) },
      detail: {
        tags,
        summary: 'Receipt link: confirm the phone with the code, and sign in',
        description:
          'The checkout’s phone becomes the customer’s confirmed sign-in phone (only while they have none: of concurrent confirmations one wins, the others get 409 conflict), and the answer signs in like POST /auth/login/verify. 422 otp_invalid for a wrong code or another code than this link’s; 410 otp_expired for an expired code or link; 429 otp_attempts_exceeded after 5 tries, 429 rate_limited for an hour after 20 failed tries at phone codes of this customer.',
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
