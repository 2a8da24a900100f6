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
