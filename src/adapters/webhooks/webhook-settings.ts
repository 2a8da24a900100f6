import type { Deps } from '../../ports/deps.ts';
import type { WebhookSettings } from '../../ports/webhook-secrets.ts';
import { ephemeralWebhookSecrets } from './sealed-webhook-secrets.ts';

/** The service's webhook settings; deps built without them (test doubles) get a process-wide key and no private addresses. */
export function webhookSettingsOf(deps: Pick<Deps, 'webhooks'>): WebhookSettings {
  return deps.webhooks ?? { secrets: ephemeralWebhookSecrets(), allowPrivateAddresses: false };
}
