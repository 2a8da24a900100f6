import { t } from 'elysia';
import { CUSTOMER_LIST_LIMIT } from '../../../../app/customers/list-customers.ts';
import { EMAIL_MAX_LENGTH } from '../../../../domain/developer.ts';
import { EXAMPLE } from '../../examples.ts';
import { Cursor, Input, LicenseStatus, Limit, Millis } from '../../schemas.ts';
import { Activation } from '../licenses/schemas.ts';

/** TypeBox models of the customer routes: sign-in, the buyer's own account, and the seller's customer list. */

export const LoginInitBody = Input({ email: t.String({ maxLength: EMAIL_MAX_LENGTH }) }, { examples: [{ email: EXAMPLE.buyerEmail }] });

export const CodeSent = t.Object({
  otpId: t.String(),
  phoneMasked: t.String({ description: 'All but the last four digits masked.' }),
  expiresIn: t.Integer({ description: 'Seconds the code stays valid (300).' }),
});

export const LoginVerifyBody = Input({
  email: t.String({ maxLength: EMAIL_MAX_LENGTH }),
  otpId: t.String({ maxLength: 100 }),
  otp: t.String({ maxLength: 20, description: 'The 6-digit code.' }),
  deviceFingerprint: t.String({ minLength: 1, maxLength: 256, description: 'The identity token is bound to this device.' }),
}, { examples: [{ email: EXAMPLE.buyerEmail, otpId: EXAMPLE.otpId, otp: EXAMPLE.otp, deviceFingerprint: EXAMPLE.machineFingerprint }] });

export const CustomerLicense = t.Object({
  id: t.String(),
  productId: t.String(),
  productName: t.String(),
  status: LicenseStatus,
  features: t.Array(t.String()),
  issuedAt: Millis,
  expiresAt: t.Union([Millis, t.Null()]),
  licenseKey: t.String(),
});

export const LoginVerified = t.Object({
  identityToken: t.String({ description: 'Send as Authorization: Bearer; valid 30 days, until POST /auth/logout.' }),
  licenses: t.Array(CustomerLicense),
});

export const LoggedOut = t.Object({ loggedOut: t.Literal(true) });

/** The verified phone change (docs/customers.md): the code goes to the phone already on file. */
export const PhoneChangeBody = Input({
  phone: t.String({ maxLength: 32, description: 'The new phone: an optional + and 7 to 15 digits; spaces, dashes, dots and brackets are ignored.' }),
}, { examples: [{ phone: EXAMPLE.newPhone }] });

export const PhoneChangeVerifyBody = Input({
  otpId: t.String({ maxLength: 100 }),
  otp: t.String({ maxLength: 20, description: 'The 6-digit code texted to the phone on file.' }),
  phone: t.String({ maxLength: 32, description: 'The same new phone as in POST /customer/phone.' }),
}, { examples: [{ otpId: EXAMPLE.otpId, otp: EXAMPLE.otp, phone: EXAMPLE.newPhone }] });

export const PhoneChanged = t.Object({ phoneMasked: t.String({ description: 'The new phone on file, all but the last four digits masked.' }) });

const machine = { id: EXAMPLE.activationId, name: 'ada-laptop', machineFingerprint: EXAMPLE.machineFingerprint, createdAt: EXAMPLE.time, lastSeenAt: EXAMPLE.time };

export const LicenseWithMachines = t.Object({
  ...CustomerLicense.properties,
  maxMachines: t.Union([t.Number(), t.Null()], { description: 'Machines this license may run on; null = unlimited.' }),
  activations: t.Array(Activation, { description: 'The machines it runs on, oldest first.' }),
});

export const CustomerLicenseList = t.Object({
  data: t.Array(LicenseWithMachines, { description: 'The customer’s licenses across sellers, oldest first.' }),
}, {
  examples: [{
    data: [{
      id: EXAMPLE.licenseId,
      productId: EXAMPLE.productId,
      productName: 'Pro Plan',
      status: 'active',
      features: ['pro'],
      issuedAt: EXAMPLE.time,
      expiresAt: null,
      licenseKey: EXAMPLE.licenseKey,
      maxMachines: 2,
      activations: [machine],
    }],
  }],
});

/** Unknown fields are ignored, as elsewhere; ids are bounded so nothing longer is looked up. */
export const CustomerActivationParams = t.Object({
  id: t.String({ maxLength: 100, examples: [EXAMPLE.licenseId] }),
  activationId: t.String({ maxLength: 100, examples: [EXAMPLE.activationId] }),
}, { additionalProperties: true });

export const CustomerListQuery = t.Object(
  {
    limit: Limit(CUSTOMER_LIST_LIMIT),
    startingAfter: Cursor('customer'),
    email: t.Optional(t.String({ maxLength: EMAIL_MAX_LENGTH, description: 'The start of the e-mail, case-insensitive (a whole address works too). Results then come in e-mail order.', examples: ['buyer@'], error: `email must be at most ${EMAIL_MAX_LENGTH} characters.` })),
  },
  { additionalProperties: true },
);

const ListedLicense = t.Object({
  id: t.String(),
  productId: t.String(),
  status: LicenseStatus,
  issuedAt: Millis,
  expiresAt: t.Union([Millis, t.Null()], { description: 'null = perpetual.' }),
  trial: t.Boolean(),
});

export const CustomerList = t.Object(
  {
    data: t.Array(
      t.Object({
        id: t.String({ description: 'The customer id (cus_…).' }),
        email: t.String(),
        firstSeenAt: Millis,
        licenses: t.Array(ListedLicense, { description: 'Their licenses from you (never another seller’s), newest first, at most 10.' }),
        moreLicenses: t.Boolean({ description: 'They hold more: list them with GET /developers/licenses?email=.' }),
      }),
    ),
    hasMore: t.Boolean({ description: 'More customers after the last one: pass its id as startingAfter.' }),
  },
  {
    examples: [
      {
        data: [
          {
            id: EXAMPLE.customerId,
            email: EXAMPLE.buyerEmail,
            firstSeenAt: EXAMPLE.time,
            licenses: [{ id: EXAMPLE.licenseId, productId: EXAMPLE.productId, status: 'active', issuedAt: EXAMPLE.time, expiresAt: null, trial: false }],
            moreLicenses: false,
          },
        ],
        hasMore: false,
      },
    ],
  },
);
