import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { money, toMinor, when } from '../format.ts';
import { useProducts } from '../products.ts';
import type { Order } from '../types.ts';
import { Choice, Field, filterOptions, formValue, Link, Outcome, Page, Rows, Submit, useAction, useConfirm, useList, SearchForm } from '../ui.tsx';

const STATUS_LABELS: Record<Order['status'], string> = { paid: 'Paid', refunded: 'Refunded' };

/** Money in: every paid order, refunds (whole or part) after a confirmation. */
export function OrdersPage() {
  const [filters, setFilters] = useState({ email: '', status: '' });
  const list = useList<Order>('/developers/orders', filters);
  const products = useProducts();
  const action = useAction();
  const confirm = useConfirm();
  const [refunding, setRefunding] = useState<Order | null>(null);

  const refund = async (event: Event) => {
    event.preventDefault();
    const order = refunding!;
    const text = formValue(event, 'refund-amount');
    const amount = text === '' ? undefined : toMinor(text, order.currency);
    const left = Number(order.amount) - Number(order.amountRefunded);
    const what = amount === undefined ? money(left, order.currency) : amount === null ? text : money(amount, order.currency);
    if (!(await confirm.ask(`Refund ${what}?`, `${what} goes back to ${order.customerEmail}. A full refund revokes the license it paid for.`, 'Refund'))) return;
    void action.run(async () => {
      if (amount === null) throw new Error('The amount is a number such as 5.00.');
      await api<Order>('POST', `/developers/orders/${order.id}/refund`, amount === undefined ? {} : { amount });
      setRefunding(null);
      list.reload();
      return `Refunded ${what} to ${order.customerEmail}.`;
    });
  };

  return (
    <Page title="Orders">
      {confirm.element}
      <SearchForm label="Find orders" onSearch={(event) => setFilters({ email: formValue(event, 'o-email'), status: formValue(event, 'o-status') })}>
        <Field label="Customer e-mail" id="o-email" type="email" />
        <Choice label="Status" id="o-status" options={filterOptions('Any status', STATUS_LABELS)} />
      </SearchForm>
      <Outcome action={action} />
      {refunding && (
        <form class="card" onSubmit={refund} aria-label={`Refund order ${refunding.id}`}>
          <h2>Refund {money(refunding.amount, refunding.currency)} from {refunding.customerEmail}</h2>
          <Field label="Amount to refund" hint="empty: everything not yet refunded" id="refund-amount" inputMode="decimal" />
          <div class="row">
            <Submit action={action} class="danger">Refund order</Submit>
            <button type="button" class="secondary" onClick={() => setRefunding(null)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      <Rows
        label="Orders"
        list={list}
        empty="No orders yet. They appear here once a buyer pays at checkout, buys in the app or a subscription renews."
        columns={['When', 'Customer', 'Product', 'Amount', 'Status', '']}
        row={(o) => (
          <tr>
            <td>{when(o.createdAt)}</td>
            <td>{o.customerEmail}</td>
            <td>
              <Link to={`/licenses/${o.licenseId}`}>{products.name(o.productId)}</Link>
              <span class="muted small"> ({o.source})</span>
            </td>
            <td>
              {money(o.amount, o.currency)}
              {Number(o.amountRefunded) > 0 && <span class="muted small"> ({money(o.amountRefunded, o.currency)} refunded)</span>}
            </td>
            <td>{o.status}</td>
            <td>
              {o.status === 'paid' && (
                <button type="button" class="secondary small" onClick={() => setRefunding(o)}>
                  Refund <span class="visually-hidden">order from {o.customerEmail}</span>
                </button>
              )}
            </td>
          </tr>
        )}
      />
    </Page>
  );
}
