import type { TextSealer } from '../../ports/crypto.ts';
import { purposeKey, sealBytes, unsealBytes } from './aes-gcm.ts';

const VERSION = 'a1';

/**
 * The answers kept for Idempotency-Key, sealed with AES-256-GCM under a key derived from the master
 * key (its own purpose): a copy of the store never shows a secret an answer carried.
 */
export class SealedAnswers implements TextSealer {
  private readonly key: Buffer;

  constructor(masterKey: Uint8Array) {
    this.key = purposeKey(masterKey, 'licensing idempotency answers');
  }

  seal(text: string): string {
    return sealBytes(this.key, VERSION, Buffer.from(text, 'utf8'));
  }

  /** An answer kept before answers were sealed (JSON, which never starts with the version) is read as it is. */
  unseal(sealed: string): string {
    return unsealBytes(this.key, VERSION, sealed)?.toString('utf8') ?? sealed;
  }
}
