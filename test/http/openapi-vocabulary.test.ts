import { describe, expect, test } from 'bun:test';
import { ACTIVATION_LIMITS } from '../../src/domain/activation.ts';
import { CHECKOUT_STATUSES, PROCESSOR_KINDS } from '../../src/domain/checkout-session.ts';
import { API_KEY_SCOPES } from '../../src/domain/developer.ts';
import { LICENSE_STATUSES, VALIDATION_REASONS } from '../../src/domain/license.ts';
import { ORDER_SOURCES, ORDER_STATUSES } from '../../src/domain/order.ts';
import { BILLING_INTERVALS, PRODUCT_LIMITS } from '../../src/domain/product.ts';
import { RENEWAL_OUTCOMES, SUBSCRIPTION_STATUSES } from '../../src/domain/subscription.ts';
import { WEBHOOK_DELIVERY_STATUSES } from '../../src/domain/webhook-endpoint.ts';
import { testApi } from '../support/http.ts';

/**
 * The API reference lists exactly the domain's vocabularies and bounds: they are derived, so a
 * value added in the domain reaches the document (and the request checks) with no other edit.
 */

type Schema = { anyOf?: Schema[]; enum?: unknown[]; const?: unknown; properties?: Record<string, Schema>; items?: Schema; maximum?: number; maxLength?: number };
type Operation = {
  parameters?: { name: string; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
};

const api = testApi();
const document = (await api.call('GET', '/openapi.json')).body as { paths: Record<string, Record<string, Operation>> };

const operation = (method: string, path: string) => document.paths[path]![method]!;
const answer = (method: string, path: string) => operation(method, path).responses['200']!.content!['application/json']!.schema;
const body = (method: string, path: string) => operation(method, path).requestBody!.content['application/json']!.schema;
const parameter = (method: string, path: string, name: string) => operation(method, path).parameters!.find((p) => p.name === name)!.schema;
/** The values of a union of literals, as `enum` or as `anyOf` consts (a nullable one's null left out). */
const consts = (schema: Schema) => schema.enum ?? schema.anyOf!.filter((member) => 'const' in member).map((member) => member.const);
const listed = (method: string, path: string) => answer(method, path).properties!.data!.items!.properties!;

describe('enums come from the domain', () => {
  test('license status, in every answer and filter that has one', () => {
    const validation = answer('post', '/v1/licenses/validate').anyOf!;
    expect(consts(validation[0]!.properties!.license!.properties!.status!)).toEqual([...LICENSE_STATUSES]);
    expect(consts(parameter('get', '/v1/developers/licenses', 'status'))).toEqual([...LICENSE_STATUSES]);
    expect(consts(listed('get', '/v1/developers/licenses').status!)).toEqual([...LICENSE_STATUSES]);
  });

  test('validation reasons: the service’s set, without the client-only network_error', () => {
    const validation = answer('post', '/v1/licenses/validate').anyOf!;
    expect(consts(validation[1]!.properties!.reason!)).toEqual([...VALIDATION_REASONS]);
    expect(VALIDATION_REASONS).not.toContain('network_error' as never);
  });

  test('orders: status, source and processor', () => {
    const order = listed('get', '/v1/developers/orders');
    expect(consts(parameter('get', '/v1/developers/orders', 'status'))).toEqual([...ORDER_STATUSES]);
    expect(consts(order.status!)).toEqual([...ORDER_STATUSES]);
    expect(consts(order.source!)).toEqual([...ORDER_SOURCES]);
    expect(consts(order.processor!)).toEqual([...PROCESSOR_KINDS]);
  });

  test('subscriptions: status and interval', () => {
    const subscription = listed('get', '/v1/developers/subscriptions');
    expect(consts(parameter('get', '/v1/developers/subscriptions', 'status'))).toEqual([...SUBSCRIPTION_STATUSES]);
    expect(consts(subscription.status!)).toEqual([...SUBSCRIPTION_STATUSES]);
    expect(consts(subscription.interval!)).toEqual([...BILLING_INTERVALS]);
  });

  test('webhook delivery status, API key scope and the sandbox clock’s outcomes', () => {
    expect(consts(answer('get', '/v1/developers/webhook-deliveries/{id}').properties!.status!)).toEqual([...WEBHOOK_DELIVERY_STATUSES]);
    expect(consts(body('post', '/v1/developers/api-keys').properties!.scope!)).toEqual([...API_KEY_SCOPES]);
    const clock = Object.values(document.paths).flatMap((methods) => Object.values(methods)).find((op) => JSON.stringify(op).includes('"payment_failed"'))!;
    const billed = clock.responses['200']!.content!['application/json']!.schema.properties!.billed!.items!;
    expect(consts(billed.properties!.outcome!)).toEqual([...RENEWAL_OUTCOMES]);
  });

  test('checkout status: one answer per status of the domain (written by hand, so checked here)', () => {
    const statuses = answer('get', '/v1/checkout/status/{sessionId}').anyOf!.map((member) => member.properties!.status!.const);
    expect([...statuses].sort()).toEqual([...CHECKOUT_STATUSES].sort());
  });
});

describe('bounds come from the domain', () => {
  test('a product’s interval and numeric bounds', () => {
    const product = body('post', '/v1/developers/products').properties!;
    expect(consts(product.interval!)).toEqual([...BILLING_INTERVALS]);
    expect(product.price!.maximum).toBe(PRODUCT_LIMITS.priceMax);
    expect(product.name!.maxLength).toBe(PRODUCT_LIMITS.nameMax);
    expect(product.graceDays!.maximum).toBe(PRODUCT_LIMITS.graceDaysMax);
    expect(product.licenseDays!.anyOf![0]!.maximum).toBe(PRODUCT_LIMITS.licenseDaysMax);
    expect(product.trialDays!.anyOf![0]!.maximum).toBe(PRODUCT_LIMITS.trialDaysMax);
    expect(product.maxMachines!.anyOf![0]!.maximum).toBe(ACTIVATION_LIMITS.maxMachinesMax);
    expect(product.deactivationsPer30Days!.maximum).toBe(ACTIVATION_LIMITS.deactivationsMax);
  });
});
