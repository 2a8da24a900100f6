import { NotFoundError } from '../../domain/errors.ts';
import type { Order } from '../../domain/order.ts';
import type { Deps } from '../../ports/deps.ts';
import { nameLookup } from './names.ts';

/** A buyer lists at most this many of their orders, newest first. */
export const CUSTOMER_ORDER_LIMIT = 100;

type OrderDeps = Pick<Deps, 'orders' | 'products' | 'developers' | 'derivedSecrets' | 'settings'>;

/** An order as its buyer sees it (docs/customers.md): what was paid, to whom, what came back, and the receipt. */
export interface CustomerOrderView {
  id: string;
  sellerName: string;
  productId: string;
  productName: string;
  licenseId: string;
  source: Order['source'];
  amount: number;
  currency: string;
  status: Order['status'];
  amountRefunded: number;
  createdAt: number;
  /** The processor's receipt (Stripe's charge receipt or hosted invoice), or for a sandbox order the service's own receipt page; null when there is none. */
  receiptUrl: string | null;
}

/** The sandbox receipt page of an order: its link carries a MAC over the order id, so only whoever was given the link opens it. */
export function sandboxReceiptUrl(deps: Pick<Deps, 'derivedSecrets' | 'settings'>, orderId: string): string {
  return `${deps.settings.apiBaseUrl}/account/receipts/${encodeURIComponent(orderId)}?t=${deps.derivedSecrets.pageLinkMac('receipt', orderId)}`;
}

export function receiptUrlOf(deps: Pick<Deps, 'derivedSecrets' | 'settings'>, order: Order): string | null {
  return order.receiptUrl ?? (order.processor === 'sandbox' ? sandboxReceiptUrl(deps, order.id) : null);
}

/** The signed-in customer's orders across sellers, newest first. */
export async function listCustomerOrders(deps: OrderDeps, customerId: string): Promise<CustomerOrderView[]> {
  const names = nameLookup(deps);
  const orders = await deps.orders.listByCustomer(customerId, CUSTOMER_ORDER_LIMIT);
  return Promise.all(orders.map((order) => describeOrder(deps, names, order)));
}

async function describeOrder(deps: OrderDeps, names: ReturnType<typeof nameLookup>, order: Order): Promise<CustomerOrderView> {
  return {
    id: order.id,
    sellerName: await names.sellerName(order.developerId),
    productId: order.productId,
    productName: await names.productName(order.productId),
    licenseId: order.licenseId,
    source: order.source,
    amount: order.amount,
    currency: order.currency,
    status: order.status,
    amountRefunded: order.amountRefunded,
    createdAt: order.createdAt,
    receiptUrl: receiptUrlOf(deps, order),
  };
}

/** What the sandbox receipt page prints. */
export interface Receipt {
  order: CustomerOrderView;
  customerEmail: string;
}

/** A sandbox order's receipt, for its link's holder; a wrong or missing MAC is 404 as an unknown order. */
export async function openSandboxReceipt(deps: OrderDeps & Pick<Deps, 'customers'>, orderId: string, mac: string): Promise<Receipt> {
  if (!deps.derivedSecrets.pageLinkValid('receipt', orderId, mac)) throw new NotFoundError('receipt');
  const order = await deps.orders.findById(orderId);
  if (!order || order.processor !== 'sandbox') throw new NotFoundError('receipt');
  const [view, customer] = await Promise.all([describeOrder(deps, nameLookup(deps), order), deps.customers.findById(order.customerId)]);
  return { order: view, customerEmail: customer?.email ?? '' };
}

