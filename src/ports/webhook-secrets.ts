import type { WebhookSecretSet } from '../domain/webhook-endpoint.ts';

/** Endpoint signing secrets: made here, and stored only sealed (with the master key). */
export interface WebhookSecrets {
  /** whsec_ + base64 of 24 random bytes (Standard Webhooks). */
  generate(): string;
  seal(set: WebhookSecretSet): string;
  unseal(sealed: string): WebhookSecretSet;
}

/** What sends one signed webhook request: address checks, signing, the HTTP call. */
export interface WebhookSender {
  send(request: { url: string; messageId: string; timestampSeconds: number; body: string; secrets: string[] }): Promise<{ status: number | null; error: string | null; durationMs: number }>;
}

/** The webhook parts of the running service; test doubles may leave them out (see adapters/webhooks). */
export interface WebhookSettings {
  secrets: WebhookSecrets;
  /** WEBHOOK_ALLOW_PRIVATE_ADDRESSES: http:// and private or loopback addresses are accepted (development, tests). */
  allowPrivateAddresses: boolean;
}
