import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
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
    if (masterKey.length !== 32) throw new Error('The master key must be 32 bytes.');
    this.key = createHmac('sha256', masterKey).update('licensing webhook endpoint secrets').digest();
  }

  generate(): string {
    return `whsec_${randomBytes(24).toString('base64')}`;
  }

  seal(set: WebhookSecretSet): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(JSON.stringify(set), 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${VERSION}.${iv.toString('base64url')}.${body.toString('base64url')}`;
  }

  unseal(sealed: string): WebhookSecretSet {
    const [version, iv, body] = sealed.split('.');
    if (version !== VERSION || !iv || !body) throw new Error('Unknown sealed webhook secret format.');
    const bytes = Buffer.from(body, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    const text = Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString('utf8');
    return JSON.parse(text) as WebhookSecretSet;
  }
}
