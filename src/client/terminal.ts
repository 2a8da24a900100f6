import type { PurchaseOffer } from '../domain/purchase.ts';
import { networkError, type Http } from './http.ts';
import { detailsFromServer } from './license-details.ts';
import type { LicenseDetails } from './types.ts';

export interface CodeSent {
  otpId: string;
  phoneMasked: string;
  expiresIn: number;
}

export type { PurchaseOffer };

export type CustomerLicense = LicenseDetails & { licenseKey: string; productName: string };

/**
 * The terminal flow: SMS login for an identity token (kept in memory; callers may persist it),
 * then purchases with a saved card confirmed by a second code.
 */
export class CustomerSession {
  private token: string | null = null;
  /** Product names learnt at purchase init, so the stored license can carry one. */
  private readonly productNames = new Map<string, string>();

  constructor(
    private readonly http: Http,
    private readonly fingerprint: () => Promise<string>,
    private readonly storeKey: (key: string, license: LicenseDetails) => Promise<void>,
  ) {}

  loginInit(email: string): Promise<CodeSent> {
    return this.http.call('POST', '/auth/login/init', { body: { email } });
  }

  async loginVerify(input: { email: string; otpId: string; otp: string }): Promise<{ identityToken: string; licenses: CustomerLicense[] }> {
    const body = { email: input.email, otpId: input.otpId, otp: input.otp, deviceFingerprint: await this.fingerprint() };
    const verified = await this.http.call<{ identityToken: string; licenses: CustomerLicense[] }>('POST', '/auth/login/verify', { body });
    this.token = verified.identityToken;
    return verified;
  }

  setIdentityToken(token: string | null): void {
    this.token = token;
  }

  /** Revokes the token on the server; a token the server no longer knows counts as logged out. */
  async logout(): Promise<void> {
    const token = this.token;
    if (!token) return;
    const answer = await this.http.send('POST', '/auth/logout', await this.customer(token));
    if (answer.kind === 'unreachable') throw networkError(answer.cause);
    if (answer.kind === 'error' && answer.error.status !== 401) throw answer.error;
    this.token = null;
  }

  async purchaseInit(productId: string): Promise<PurchaseOffer> {
    const offer = await this.http.call<PurchaseOffer>('POST', '/purchase/init', { ...(await this.customer()), body: { productId } });
    this.productNames.set(offer.purchaseId, offer.productName);
    return offer;
  }

  async purchaseOtp(purchaseId: string): Promise<CodeSent> {
    return this.http.call('POST', '/purchase/otp', { ...(await this.customer()), body: { purchaseId } });
  }

  /** Charges the saved card and stores the new key. */
  async purchaseConfirm(input: { purchaseId: string; otpId: string; otp: string; cardId: string }): Promise<{ license: LicenseDetails; licenseKey: string }> {
    const { purchaseId, otpId, otp, cardId } = input;
    const confirmed = await this.http.call<{ license: Record<string, unknown>; licenseKey: string }>('POST', '/purchase/confirm', {
      ...(await this.customer()),
      body: { purchaseId, otpId, otp, cardId },
    });
    const license = detailsFromServer(confirmed.license, this.productNames.get(purchaseId));
    await this.storeKey(confirmed.licenseKey, license);
    return { license, licenseKey: confirmed.licenseKey };
  }

  private async customer(token = this.token) {
    return { bearer: token, deviceFingerprint: await this.fingerprint() };
  }
}
