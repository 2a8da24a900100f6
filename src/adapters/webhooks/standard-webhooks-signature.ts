import { createHmac } from 'node:crypto';

/**
 * The `webhook-signature` header of Standard Webhooks: `v1,<base64 HMAC-SHA256>` of
 * `id.timestamp.body` under each secret's bytes (base64 after `whsec_`), space-separated, so a
 * receiver that knows either secret of a rotation accepts the message.
 */
export function standardWebhookSignature(secrets: readonly string[], messageId: string, timestampSeconds: number, body: string): string {
  const signed = `${messageId}.${timestampSeconds}.${body}`;
  return secrets
    .map((secret) => `v1,${createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64')).update(signed).digest('base64')}`)
    .join(' ');
}
