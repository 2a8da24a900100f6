/**
 * Each answer's TypeBox schema (what the OpenAPI document shows and the console's types are
 * generated from) is the type the domain or use case builds the answer as, checked by the compiler:
 * a field added to one and not the other fails `bun run typecheck` here. Types only: nothing runs.
 */
import type { Static, TSchema } from 'elysia';
import type { ApiKeyView } from '../../app/developers/api-keys.ts';
import type { SignedInView } from '../../app/console/sessions.ts';
import type { PasskeyView } from '../../app/console/passkeys.ts';
import type { CustomerOrderView } from '../../app/customers/customer-orders.ts';
import type { CustomerView } from '../../app/customers/list-customers.ts';
import type { grantLicense } from '../../app/licenses/grant-license.ts';
import type { sellerStats } from '../../app/stats/seller-stats.ts';
import type { OrderView } from '../../app/orders/list-orders.ts';
import type { EndpointView } from '../../app/outgoing-webhooks/endpoints.ts';
import type { CustomerSubscriptionView } from '../../app/subscriptions/customer-subscriptions.ts';
import type { DeveloperLicenseView, LicenseView } from '../../domain/license.ts';
import type { Product } from '../../domain/product.ts';
import type { SubscriptionView } from '../../domain/subscription.ts';
import type { DeliveryView } from '../../ports/outbox-repository.ts';
import type { ApiKeyView as ApiKeySchema } from './routes/developers.ts';
import type { SignedIn, PasskeyView as PasskeySchema } from './routes/console-schemas.ts';
import type { CustomerOrder, CustomerSubscription, ListedCustomer } from './routes/customers/schemas.ts';
import type { Activation, DeveloperLicense, IssuedLicense } from './routes/licenses/schemas.ts';
import type { publicActivation } from './routes/licenses/views.ts';
import type { Stats } from './routes/stats.ts';
import type { Order } from './routes/orders.ts';
import type { Product as ProductSchema } from './routes/products.ts';
import type { SubscriptionView as SubscriptionSchema } from './routes/subscriptions.ts';
import type { WebhookDelivery, WebhookEndpoint } from './routes/webhooks/schemas.ts';
import type { LicenseView as LicenseSchema } from './schemas.ts';

/** Intersections and named types spelled out at every depth, so `A & B` and the object it makes compare equal. */
type Flat<T> = T extends readonly (infer U)[] ? Flat<U>[] : T extends object ? { [K in keyof T]: Flat<T[K]> } : T;
/** True only when both types are the same (optional, readonly and `any` included). */
type Equal<A, B> = (<T>() => T extends Flat<A> ? 1 : 2) extends <T>() => T extends Flat<B> ? 1 : 2 ? true : false;
/** Compiles only when the schema's static type is the domain's. */
type Same<S extends TSchema, D> = Equal<Static<S>, D> extends true ? true : { schema: Flat<Static<S>>; domain: Flat<D> };
type Holds<T extends true> = T;

export type AnswerShapes = [
  Holds<Same<typeof LicenseSchema, LicenseView>>,
  Holds<Same<typeof DeveloperLicense, DeveloperLicenseView>>,
  Holds<Same<typeof IssuedLicense, Awaited<ReturnType<typeof grantLicense>>>>,
  Holds<Same<typeof Activation, ReturnType<typeof publicActivation>>>,
  Holds<Same<typeof ProductSchema, Omit<Product, 'developerId'>>>,
  Holds<Same<typeof Order, OrderView>>,
  Holds<Same<typeof SubscriptionSchema, SubscriptionView>>,
  Holds<Same<typeof ListedCustomer, CustomerView>>,
  Holds<Same<typeof Stats, Awaited<ReturnType<typeof sellerStats>>>>,
  Holds<Same<typeof WebhookEndpoint, EndpointView>>,
  Holds<Same<typeof WebhookDelivery, DeliveryView>>,
  Holds<Same<typeof ApiKeySchema, ApiKeyView>>,
  Holds<Same<typeof PasskeySchema, PasskeyView>>,
  Holds<Same<typeof SignedIn, SignedInView>>,
  Holds<Same<typeof CustomerOrder, CustomerOrderView>>,
  Holds<Same<typeof CustomerSubscription, CustomerSubscriptionView>>,
];
