/**
 * The shapes the console reads: names for the answers the API documents, generated from
 * GET /v1/openapi.json into api-types.ts (`bun run build:console-types`). Never a shape by hand.
 */
import type { paths } from './api-types.ts';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Json<R> = R extends { content: { 'application/json': infer T } } ? T : never;
/** What a route answers when it succeeds. */
export type Answer<P extends keyof paths, M extends Method> = paths[P][M] extends { responses: infer R } ? Json<R[keyof R & (200 | 201 | 202)]> : never;
/** What a route takes as its JSON body. */
export type Body<P extends keyof paths, M extends Method> = paths[P][M] extends { requestBody?: infer B } ? Json<NonNullable<B>> : never;
type Item<L> = L extends { data: (infer T)[] } ? T : never;

export type SessionAnswer = Answer<'/v1/developers/login/verify', 'post'>;
export type Developer = SessionAnswer['developer'];
export type Product = Item<Answer<'/v1/developers/products', 'get'>>;
export type License = Item<Answer<'/v1/developers/licenses', 'get'>>;
export type LicenseDetail = Answer<'/v1/licenses/{id}', 'get'>;
export type IssuedLicense = Answer<'/v1/developers/licenses', 'post'>;
export type Activations = Answer<'/v1/licenses/{id}/activations', 'get'>;
export type Customer = Item<Answer<'/v1/developers/customers', 'get'>>;
export type Order = Item<Answer<'/v1/developers/orders', 'get'>>;
export type Subscription = Item<Answer<'/v1/developers/subscriptions', 'get'>>;
export type Endpoint = Answer<'/v1/developers/webhook-endpoints/{id}', 'get'>;
export type NewEndpoint = Answer<'/v1/developers/webhook-endpoints', 'post'>;
export type Delivery = Answer<'/v1/developers/webhook-deliveries/{id}', 'get'>;
export type EventItem = Item<Answer<'/v1/developers/events', 'get'>>;
export type ApiKey = Item<Answer<'/v1/developers/api-keys', 'get'>>;
export type Stats = Answer<'/v1/developers/stats', 'get'>;
export type Money = Stats['totals']['mrr'][number];
export type ConsoleSession = Item<Answer<'/v1/developers/console/sessions', 'get'>>;
export type Passkey = Item<Answer<'/v1/developers/passkeys', 'get'>>;
export type ApiKeyList = Answer<'/v1/developers/api-keys', 'get'>;
export type NewApiKey = Answer<'/v1/developers/api-keys', 'post'>;
export type Jwks = Answer<'/v1/developers/{id}/jwks.json', 'get'>;
export type RotatedKey = Answer<'/v1/developers/signing-keys/rotate', 'post'>;
export type ConnectStatus = Answer<'/v1/connect/status', 'get'>;
export type ConnectStart = Answer<'/v1/connect/start', 'post'>;
export type LoginStarted = Answer<'/v1/developers/login', 'post'>;
export type RotatedSecret = Answer<'/v1/developers/webhook-endpoints/{id}/rotate-secret', 'post'>;
export type BulkRedelivery = Answer<'/v1/developers/webhook-endpoints/{id}/redeliver', 'post'>;
