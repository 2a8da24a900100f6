import { ConflictError, InvalidRequestError, NotFoundError } from '../../domain/errors.ts';
import {
  ENDPOINT_DISABLED_BY_SELLER, isAddressLiteral, resolvedAddressProblem, unknownEventTypes, unreachableHostProblem, urlHost, WEBHOOK_LIMITS, webhookUrlProblem, type WebhookEndpoint,
} from '../../domain/webhook-endpoint.ts';
import type { Deps } from '../../ports/deps.ts';
import type { EndpointPage } from '../../ports/webhook-endpoint-repository.ts';
import { pageLimit } from './pages.ts';

export type EndpointDeps = Pick<Deps, 'clock' | 'ids' | 'webhookEndpoints' | 'webhookSecrets' | 'settings' | 'hostResolver'>;

/** What a seller sees of an endpoint: never its secret. */
export type EndpointView = Omit<WebhookEndpoint, 'developerId' | 'sealedSecret'>;

export const endpointView = ({ developerId: _d, sealedSecret: _s, ...view }: WebhookEndpoint): EndpointView => view;

export interface EndpointInput {
  url?: string;
  events?: string[] | null;
  description?: string | null;
  enabled?: boolean;
}

async function checked(deps: EndpointDeps, input: EndpointInput): Promise<void> {
  if (input.url !== undefined) {
    const problem = webhookUrlProblem(input.url, deps.settings.webhooks.allowPrivateAddresses) ?? (await resolvedProblem(deps, input.url));
    if (problem) throw new InvalidRequestError(problem, 'url');
  }
  if (input.events) {
    const unknown = unknownEventTypes(input.events);
    if (unknown.length > 0) throw new InvalidRequestError(`events: unknown event type "${unknown[0]}".`, 'events');
    if (input.events.length === 0) throw new InvalidRequestError('events must name at least one event type, or be left out for every event.', 'events');
  }
}

/**
 * A name is resolved now, and refused when it does not resolve or when any of its addresses is
 * internal: a seller learns at once that the URL will never be delivered to. (The sender checks
 * again before each attempt, since DNS answers change.) Allowing private addresses skips this.
 */
async function resolvedProblem(deps: EndpointDeps, url: string): Promise<string | null> {
  if (deps.settings.webhooks.allowPrivateAddresses) return null;
  const host = urlHost(new URL(url));
  if (isAddressLiteral(host)) return null; // a literal address was judged with the URL
  // A name that does not resolve and one with an internal address get the same answer (see unreachableHostProblem).
  const problem = await deps.hostResolver.resolve(host).then((addresses) => resolvedAddressProblem(host, addresses), () => unreachableHostProblem(host));
  return problem && `url: ${problem}; webhooks are delivered only to public addresses.`;
}

/** An endpoint taking `events` (all when absent), enabled at once; its secret is shown in this answer only. */
export async function createEndpoint(deps: EndpointDeps, developerId: string, input: EndpointInput & { url: string }): Promise<EndpointView & { secret: string }> {
  await checked(deps, input);
  const now = deps.clock.now();
  const secret = deps.webhookSecrets.generate();
  const endpoint: WebhookEndpoint = {
    // Ids has no prefix for endpoints; 22 base62 characters of a fresh secret are as unguessable as any id.
    id: `we_${deps.ids.secret('').slice(0, 22)}`,
    developerId,
    url: input.url,
    description: input.description ?? null,
    events: input.events ? [...new Set(input.events)] : null,
    sealedSecret: deps.webhookSecrets.seal({ current: secret, previous: null, previousUntil: null }),
    enabled: true,
    disabledReason: null,
    failingSince: null,
    createdAt: now,
    updatedAt: now,
  };
  if (!(await deps.webhookEndpoints.create(endpoint, WEBHOOK_LIMITS.endpointsPerDeveloper))) {
    throw new ConflictError('conflict', `You already have ${WEBHOOK_LIMITS.endpointsPerDeveloper} webhook endpoints: delete one first.`);
  }
  return { ...endpointView(endpoint), secret };
}

export async function getEndpoint(deps: Pick<Deps, 'webhookEndpoints'>, developerId: string, id: string): Promise<WebhookEndpoint> {
  const endpoint = await deps.webhookEndpoints.get(developerId, id);
  if (!endpoint) throw new NotFoundError('webhook endpoint');
  return endpoint;
}

export async function listEndpoints(deps: Pick<Deps, 'webhookEndpoints'>, developerId: string, page: { limit?: number; startingAfter?: string }): Promise<EndpointPage> {
  if (page.startingAfter !== undefined && !(await deps.webhookEndpoints.get(developerId, page.startingAfter))) {
    throw new InvalidRequestError('startingAfter is not one of your webhook endpoints.', 'startingAfter', 'query');
  }
  return deps.webhookEndpoints.list(developerId, { limit: pageLimit(page.limit), startingAfter: page.startingAfter });
}

/**
 * Changes what was given. Turning it off gives up its pending deliveries (they stay in the log,
 * redeliverable); turning it back on forgets why it was off and since when it failed.
 */
export async function updateEndpoint(deps: EndpointDeps, developerId: string, id: string, input: EndpointInput): Promise<EndpointView> {
  await checked(deps, input);
  const current = await getEndpoint(deps, developerId, id);
  const toggled = input.enabled === undefined || input.enabled === current.enabled ? {} : input.enabled
    ? { enabled: true, disabledReason: null, failingSince: null }
    : { enabled: false, disabledReason: ENDPOINT_DISABLED_BY_SELLER };
  const updated = await deps.webhookEndpoints.update(developerId, id, {
    ...(input.url !== undefined && { url: input.url }),
    ...(input.description !== undefined && { description: input.description }),
    ...(input.events !== undefined && { events: input.events ? [...new Set(input.events)] : null }),
    ...toggled,
    updatedAt: deps.clock.now(),
  });
  if (!updated) throw new NotFoundError('webhook endpoint');
  return endpointView(updated);
}

/** Deleted for good, with its delivery log; events keep being written, for the seller's other endpoints. */
export async function deleteEndpoint(deps: Pick<Deps, 'webhookEndpoints'>, developerId: string, id: string): Promise<void> {
  if (!(await deps.webhookEndpoints.delete(developerId, id))) throw new NotFoundError('webhook endpoint');
}

/**
 * A new secret, shown once. The old one keeps signing beside it (a second v1 signature) for 24
 * hours, so the receiver can switch without losing a message; a second rotation in that time drops
 * the first secret at once.
 */
export async function rotateEndpointSecret(deps: EndpointDeps, developerId: string, id: string): Promise<EndpointView & { secret: string; previousSecretExpiresAt: number }> {
  const current = await getEndpoint(deps, developerId, id);
  const now = deps.clock.now();
  const secret = deps.webhookSecrets.generate();
  const previousUntil = now + WEBHOOK_LIMITS.previousSecretMs;
  const old = deps.webhookSecrets.unseal(current.sealedSecret);
  const sealedSecret = deps.webhookSecrets.seal({ current: secret, previous: old.current, previousUntil });
  const updated = await deps.webhookEndpoints.update(developerId, id, { sealedSecret, updatedAt: now });
  if (!updated) throw new NotFoundError('webhook endpoint');
  return { ...endpointView(updated), secret, previousSecretExpiresAt: previousUntil };
}
