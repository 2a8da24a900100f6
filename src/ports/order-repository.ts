import type { Order, OrderStatus } from '../domain/order.ts';
import type { PaymentReversal } from './payment-processor.ts';
import type { NewestFirstQuery, Page } from './page.ts';

export interface OrderRepository {
  /**
   * Records an order once per `sourceId` (store-enforced): a second record of the same source
   * writes nothing and returns the order stored first. Writing it emits `order.completed`.
   */
  record(order: Order): Promise<Order>;
  /**
   * Records money gone back on an order, in one conditional statement with its `order.refunded`:
   * `amountRefunded` becomes `total` (at most the amount) only while it is lower, so a repeated or
   * late report changes nothing; with `expectRefunded`, only while it is exactly that (the refund
   * route's compare-and-swap: of concurrent refunds from one state, one is recorded). The status
   * becomes `refunded` when all of the amount went back. The order as updated, or null when nothing changed.
   */
  refund(id: string, total: number, at: number, expectRefunded?: number): Promise<Order | null>;
  /**
   * Keeps a processor's report that money of a payment went back, whether or not an order of it
   * exists yet (one row per payment and account, in one upsert): the refunded total only rises,
   * 'all' stays, an invoice once named stays. Recorded before the orders are read, as an order is
   * recorded before its reversals are read, so of a reversal and an order written at once at least
   * one side sees the other.
   */
  recordReversal(reversal: PaymentReversal, at: number): Promise<void>;
  /** The reversals kept of a payment, or of the invoice it paid (either may be null). */
  reversalsOf(paymentId: string | null, invoiceId: string | null): Promise<PaymentReversal[]>;
  findById(id: string): Promise<Order | null>;
  /** The orders a processor payment paid (one, in practice), oldest first. */
  findByPayment(paymentId: string): Promise<Order[]>;
  /** The order of a checkout session, purchase or invoice. */
  findBySource(sourceId: string): Promise<Order | null>;
  /** The orders of one license (its purchase or checkout, its renewals), oldest first. */
  findByLicense(licenseId: string): Promise<Order[]>;
  /** One customer's orders across sellers, newest first (createdAt, then id), at most `limit`. */
  listByCustomer(customerId: string, limit: number): Promise<Order[]>;
  /**
   * One developer's orders, newest first (createdAt, then id, both descending), each with its
   * customer's e-mail. Another developer's orders are never in it.
   */
  listByDeveloper(developerId: string, query: OrderListQuery): Promise<OrderPage>;
}

/** An order as its seller lists it: with the e-mail of the customer who paid. */
export type DeveloperOrder = Order & { customerEmail: string };

export interface OrderListQuery extends NewestFirstQuery<OrderStatus> {
  /** Normalized (trimmed, lower case): an exact match. */
  customerEmail?: string;
  /** Created at or after this millisecond. */
  createdFrom?: number;
  /** Created strictly before this millisecond. */
  createdBefore?: number;
}

export type OrderPage = Page<DeveloperOrder>;
