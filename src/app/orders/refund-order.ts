import { ConflictError, DomainError, InvalidRequestError, NotFoundError } from '../../domain/errors.ts';
import { refundableAmount, refundAmountProblem, type Order } from '../../domain/order.ts';
import type { Deps } from '../../ports/deps.ts';
import type { OrderView } from './list-orders.ts';
import { settleRefund, takeBack, type SettleRefundDeps } from './settle-refund.ts';

export type RefundDeps = SettleRefundDeps & Pick<Deps, 'customers' | 'connections' | 'processor'>;

/**
 * The seller gives money back on one of their orders: all that is left of it (no amount), or part.
 * The processor refunds first (Stripe: on the seller's connected account; the sandbox: at once), so
 * nothing is recorded that it refused; then the refund is recorded with its consequences (a full
 * refund takes back what the order paid for, as a refund made at Stripe does).
 *
 * Once per state of the order: the processor's idempotency key is the order and what was refunded
 * of it before, and the store records the refund only from that state (compare-and-swap), so
 * concurrent or repeated calls against one state refund once (the same amount: each gets the
 * order; another amount: 409). A fully refunded order is answered as it stands.
 */
export async function refundOrder(deps: RefundDeps, developerId: string, id: string, amount?: number): Promise<OrderView> {
  const order = await deps.orders.findById(id);
  if (!order || order.developerId !== developerId) throw new NotFoundError('Order');
  if (order.status === 'refunded') {
    // A repeat, or the retry of a refund interrupted after it was recorded: finish what is left.
    await takeBack(deps, order);
    return view(deps, order);
  }
  const asked = amount ?? refundableAmount(order);
  const problem = refundAmountProblem(order, asked);
  if (problem) throw new InvalidRequestError(problem, 'amount');
  await refundAtProcessor(deps, order, asked);
  const total = order.amountRefunded + asked;
  const settled = await settleRefund(deps, order, total, order.amountRefunded);
  // Lost the compare-and-swap: the same refund recorded by a concurrent call (or the processor's event) is this one.
  if (!settled.recorded && settled.order.amountRefunded !== total) {
    throw new ConflictError('conflict', 'Another refund of this order was recorded at the same time: list the order to see what went back before asking again.');
  }
  return view(deps, settled.order);
}

/** A sandbox order's money goes back at once, whichever processor runs now; a Stripe order's on the seller's account. */
async function refundAtProcessor(deps: RefundDeps, order: Order, amount: number): Promise<void> {
  if (order.processor === 'sandbox') return;
  if (deps.processor.kind !== order.processor) {
    throw new ConflictError('conflict', `This order was paid through ${order.processor}, which this service is not configured for.`);
  }
  const account = await deps.connections.accountOf(order.developerId);
  if (!account) throw new DomainError('not_connected', 'Connect your payment account again to refund its orders (POST /v1/connect/start).');
  const paymentId = order.paymentId ?? (order.source === 'renewal' ? await deps.processor.invoicePaymentId(order.sourceId, account.accountId) : null);
  if (!paymentId) throw new ConflictError('conflict', 'The processor’s payment of this order is not known; refund it in your processor’s dashboard.');
  await deps.processor.refund({
    paymentId,
    accountId: account.accountId,
    amount,
    idempotencyKey: `order-refund-${order.id}-${order.amountRefunded}`,
    metadata: { order_id: order.id, developer_id: order.developerId },
  });
}

/**
 * A keyed refund's answer rebuilt: the seller's order as it stands (null: not theirs, or gone). A
 * refund in full cut off after its recording finishes taking back what the order paid for, as a
 * repeated refund does.
 */
export async function orderAsItStands(deps: RefundDeps, developerId: string, id: string): Promise<OrderView | null> {
  const order = await deps.orders.findById(id);
  if (!order || order.developerId !== developerId) return null;
  if (order.status === 'refunded') await takeBack(deps, order);
  return view(deps, order);
}

async function view(deps: Pick<Deps, 'customers'>, order: Order): Promise<OrderView> {
  const { developerId: _d, ...rest } = order;
  const customer = await deps.customers.findById(order.customerId);
  return { ...rest, customerEmail: customer?.email ?? '' };
}
