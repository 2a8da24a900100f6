/**
 * The shapes the console reads: names for the answers the API documents, generated from
 * GET /v1/openapi.json into api-types.ts (`bun run build:console-types`). Never a shape by hand.
 * There, a route's answer is named by its route, method and status (`DevelopersStatsGet200`), a
 * list's item by its list (`DevelopersOrdersGet200DataItem`, the page itself is `ListPage` in api.ts),
 * and a shape several answers share by the first place it stands in.
 */
import type { components } from './api-types.ts';

type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

export type SessionAnswer = Schema<'DevelopersLoginVerifyPost200'>;
export type Developer = Schema<'DevelopersLoginVerifyPost200Developer'>;
export type Product = Schema<'DevelopersProductsGet200DataItem'>;
export type License = Schema<'DevelopersLicensesGet200DataItem'>;
export type LicenseDetail = Schema<'LicensesByIdGet200'>;
export type IssuedLicense = Schema<'DevelopersLicensesPost201'>;
export type Activations = Schema<'LicensesByIdActivationsGet200'>;
export type Customer = Schema<'DevelopersCustomersGet200DataItem'>;
export type Order = Schema<'DevelopersOrdersGet200DataItem'>;
export type Subscription = Schema<'DevelopersSubscriptionsGet200DataItem'>;
export type Endpoint = Schema<'DevelopersWebhookEndpointsByIdGet200'>;
export type NewEndpoint = Schema<'DevelopersWebhookEndpointsPost201'>;
export type Delivery = Schema<'DevelopersWebhookDeliveriesByIdGet200'>;
export type EventItem = Schema<'DevelopersEventsGet200DataItem'>;
export type ApiKey = Schema<'DevelopersApiKeysGet200DataItem'>;
export type Stats = Schema<'DevelopersStatsGet200'>;
export type Money = Schema<'DevelopersStatsGet200SeriesItemRevenueItem'>;
export type ConsoleSession = Schema<'DevelopersConsoleSessionsGet200'>['data'][number];
export type Passkey = Schema<'DevelopersPasskeysGet200'>['data'][number];
export type ApiKeyList = Schema<'DevelopersApiKeysGet200'>;
export type NewApiKey = Schema<'DevelopersApiKeysPost201'>;
export type Jwks = Schema<'DevelopersByIdJwksJsonGet200'>;
export type RotatedKey = Schema<'DevelopersSigningKeysRotatePost201'>;
export type ConnectStatus = Schema<'ConnectStatusGet200'>;
export type ConnectStart = Schema<'ConnectStartPost200'>;
export type LoginStarted = Schema<'DevelopersLoginPost202'>;
export type RotatedSecret = Schema<'DevelopersWebhookEndpointsByIdRotateSecretPost200'>;
export type BulkRedelivery = Schema<'DevelopersWebhookEndpointsByIdRedeliverPost200'>;
