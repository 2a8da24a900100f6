import { randomBytes } from 'node:crypto';
import { purposeKey, sealBytes, unsealBytes } from '../crypto/aes-gcm.ts';
import type { WebhookSecretSet } from '../../domain/webhook-endpoint.ts';
import type { WebhookSecrets } from '../../ports/webhook-secrets.ts';

const VERSION = 'w1';

/**
 * Endpoint secrets sealed with AES-256-GCM under a key derived from the master key (its own
 * purpose, so a sealed secret and a sealed signing key can never be swapped for one another). The
 * sealed text holds the whole set: the current secret and, for a day after a rotation, the old one.
 */
export class SealedWebhookSecrets implements WebhookSecrets {
  private readonly key: Buffer;

  constructor(masterKey: Uint8Array) {
    this.key = purposeKey(masterKey, 'licensing webhook endpoint secrets');
  }

  generate(): string {
    return `whsec_${randomBytes(24).toString('base64')}`;
  }

  seal(set: WebhookSecretSet): string {
    return sealBytes(this.key, VERSION, Buffer.from(JSON.stringify(set), 'utf8'));
  }

  unseal(sealed: string): WebhookSecretSet {
    const bytes = unsealBytes(this.key, VERSION, sealed);
    if (!bytes) throw new Error('Unknown sealed webhook secret format.');
    return JSON.parse(bytes.toString('utf8')) as WebhookSecretSet;
  }
}
