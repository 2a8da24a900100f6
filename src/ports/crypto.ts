import type { Ed25519Verify } from '../domain/license-key.ts';

/** Digests of secrets (API keys, license keys): what the store keeps instead of the secret. */
export interface Hashing {
  hash(secret: string): string;
  /** Constant-time comparison of two digests. */
  equal(a: string, b: string): boolean;
}

/** Ed25519 key pairs whose private half never leaves this port unsealed. */
export interface Signer {
  generate(): { publicKey: string; sealedPrivateKey: string };
  sign(sealedPrivateKey: string, data: Uint8Array): Uint8Array;
  verifier(publicKey: string): Ed25519Verify;
}

/** Secrets derived from the master key: the same on every instance and after every restart, so never stored. */
export interface DerivedSecrets {
  /**
   * The publishable key (`pk_…`) a seller's receipts print in the activation command. Only its
   * digest is stored, as every key's, when the first receipt needs it (docs/mail.md).
   */
  receiptPublishableKey(developerId: string): string;
  /** The keyed MAC of a receipt's phone link (`src/domain/phone-link.ts`): 43 base64url characters. */
  phoneLinkMac(payload: string): string;
  /** Whether `mac` is the phone link MAC of `payload`, compared in constant time. */
  phoneLinkValid(payload: string, mac: string): boolean;
  /** The keyed MAC of a buyer's page link (a sandbox receipt, the sandbox card form): 43 base64url characters. */
  pageLinkMac(purpose: 'receipt' | 'card', payload: string): string;
  /** Whether `mac` is that MAC, compared in constant time. */
  pageLinkValid(purpose: 'receipt' | 'card', payload: string, mac: string): boolean;
}

/**
 * Text kept at rest sealed under the master key: the answers kept for Idempotency-Key, which may
 * hold a secret shown once (a new API key, a webhook endpoint's secret, a license key).
 */
export interface TextSealer {
  seal(text: string): string;
  unseal(sealed: string): string;
}
