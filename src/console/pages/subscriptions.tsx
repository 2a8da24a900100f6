import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { day } from '../format.ts';
import { useProducts } from '../products.ts';
import type { Subscription } from '../types.ts';
import { Choice, filterOptions, Link, Outcome, Page, Rows, useAction, useConfirm, useList } from '../ui.tsx';

const STATUS_LABELS: Record<Subscription['status'], string> = { active: 'Active', past_due: 'Past due', canceled: 'Canceled' };

/** Recurring customers; cancel (at the period's end, as the API does) after a confirmation. */
export function SubscriptionsPage() {
  const [status, setStatus] = useState('');
  const list = useList<Subscription>('/developers/subscriptions', { status });
  const products = useProducts();
  const action = useAction();
  const confirm = useConfirm();
  const cancel = async (s: Subscription) => {
    if (!(await confirm.ask(`Cancel ${s.customerEmail}'s subscription?`, `It does not renew; the license stays valid until ${day(Number(s.currentPeriodEnd))}.`, 'Cancel subscription'))) return;
    void action.run(async () => {
      await api('POST', `/developers/subscriptions/${s.id}/cancel`);
      list.reload();
      return `Canceled ${s.customerEmail}'s subscription.`;
    });
  };
  return (
    <Page title="Subscriptions">
      {confirm.element}
      <Choice label="Status" id="s-status" value={status} onChange={setStatus} options={filterOptions('Any status', STATUS_LABELS)} />
      <Outcome action={action} />
      <Rows
        label="Subscriptions"
        list={list}
        empty="No subscriptions yet. Give a product a billing interval (Products) and sell it through checkout."
        columns={['Customer', 'Product', 'Status', 'Period ends', '']}
        row={(s) => (
          <tr>
            <td>{s.customerEmail}</td>
            <td>
              <Link to={`/licenses/${s.licenseId}`}>{products.name(s.productId)}</Link> <span class="muted small">/ {s.interval}</span>
            </td>
            <td>
              {s.status}
              {s.cancelAtPeriodEnd && s.status !== 'canceled' && <span class="tag">ends at period end</span>}
            </td>
            <td>{day(Number(s.currentPeriodEnd))}</td>
            <td>
              {s.status !== 'canceled' && !s.cancelAtPeriodEnd && (
                <button type="button" class="secondary small" onClick={() => cancel(s)} disabled={action.busy}>
                  Cancel <span class="visually-hidden">subscription of {s.customerEmail}</span>
                </button>
              )}
            </td>
          </tr>
        )}
      />
    </Page>
  );
}
