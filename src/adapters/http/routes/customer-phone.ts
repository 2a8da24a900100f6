import { confirmPhoneChange, requestPhoneChange } from '../../../app/customers/change-phone.ts';
import type { Deps } from '../../../ports/deps.ts';
import { SECURITY, withCustomer } from '../auth.ts';
import { CodeSent, errorsOf, PhoneChangeBody, PhoneChanged, PhoneChangeVerifyBody } from '../schemas.ts';

const tags = ['Customers'];

/** A logged-in customer changes the phone on file, proven by a code texted to that phone. */
export function customerPhoneRoutes(deps: Deps) {
  return withCustomer(deps)
    .post('/customer/phone', ({ customer, body }) => requestPhoneChange(deps, customer.customerId, body), {
      body: PhoneChangeBody,
      response: { 200: CodeSent, ...errorsOf(400, 401, 409, 413, 429, 502) },
      detail: {
        tags,
        summary: 'Ask to change the phone on file: a code goes to the phone already on file',
        description:
          'The code is texted to the phone ON FILE, not to the new one: whoever changes the phone must hold the current one. phoneMasked is the phone on file. The code confirms this change to this phone only (it cannot sign in or confirm a purchase). 400 invalid_request for a malformed phone; 409 conflict when it is already the phone on file; 429 rate_limited beyond 3 codes per new phone per 15 minutes (and the per-phone and per-customer text limits); 502 sms_failed. A checkout never replaces a phone on file: this is the only way it changes.',
        security: SECURITY.customer,
      },
    })
    .post('/customer/phone/verify', ({ customer, body }) => confirmPhoneChange(deps, customer.customerId, body), {
      body: PhoneChangeVerifyBody,
      response: { 200: PhoneChanged, ...errorsOf(400, 401, 409, 410, 413, 422, 429) },
      detail: {
        tags,
        summary: 'Confirm the phone change with the code',
        description:
          'The new phone becomes the one on file, and the cards saved under the old phone move with it (one transaction), so sign-in and purchase codes go to the new phone from now on. 422 otp_invalid for a wrong code, another customer’s challenge, another phone than the one asked for, a code texted to a phone no longer on file, or a sign-in or purchase code; 410 otp_expired after 5 minutes; 429 otp_attempts_exceeded after 5 tries, 429 rate_limited for an hour after 20 attempts at phone-change codes without a success; 409 conflict when another change of the phone was confirmed at the same moment and won.',
        security: SECURITY.customer,
      },
    });
}
