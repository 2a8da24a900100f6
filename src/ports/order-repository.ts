import type { Order, OrderStatus } from '../domain/order.ts';

export interface OrderRepository {
  /**
   * Records an order once per `sourceId` (store-enforced): a second record of the same source
   * writes nothing and returns the order stored first. Writing it emits `order.completed`.
   */
  record(order: Order): Promise<Order>;
  /** Marks every paid order of this payment refunded at `at` (emits `order.refunded`); returns how many changed. */
  markRefundedByPayment(paymentId: string, at: number): Promise<number>;
  findById(id: string): Promise<Order | null>;
  /**
   * One developer's orders, newest first (createdAt, then id, both descending), each with its
   * customer's e-mail. Another developer's orders are never in it.
   */
  listByDeveloper(developerId: string, query: OrderListQuery): Promise<OrderPage>;
}

/** An order as its seller lists it: with the e-mail of the customer who paid. */
export type DeveloperOrder = Order & { customerEmail: string };

export interface OrderListQuery {
  limit: number;
  /** Where the previous page ended (its last order): this page starts right after it. */
  after?: { createdAt: number; id: string };
  productId?: string;
  /** Normalized (trimmed, lower case): an exact match. */
  customerEmail?: string;
  status?: OrderStatus;
  /** Created at or after this millisecond. */
  createdFrom?: number;
  /** Created strictly before this millisecond. */
  createdBefore?: number;
}

export interface OrderPage {
  data: DeveloperOrder[];
  hasMore: boolean;
}
