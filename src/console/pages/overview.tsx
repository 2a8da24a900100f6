import { useMemo, useState } from 'preact/hooks';
import { api, withQuery } from '../api.ts';
import { Chart } from '../chart.tsx';
import { day, money, when } from '../format.ts';
import type { Money, Stats } from '../types.ts';
import { Alert, Empty, Link, Loading, Page, Rows, Table, useLoad } from '../ui.tsx';

const RANGES = [30, 90, 365] as const;

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

const count = (n: number) => new Intl.NumberFormat('en').format(n);

function amounts(list: Money[]): string {
  return list.length ? list.map((m) => money(m.amount, m.currency)).join(' · ') : '0';
}

/** Revenue and new licenses over 30, 90 or 365 days, the running totals, what needs attention. */
export function OverviewPage() {
  const [range, setRange] = useState<(typeof RANGES)[number]>(30);
  const stats = useLoad(() => {
    const to = Date.now();
    return api<Stats>('GET', withQuery('/developers/stats', { from: isoDay(to - (range - 1) * 86_400_000), to: isoDay(to), interval: 'day' }));
  }, [range]);
  const s = stats.value;
  const charts = useMemo(() => {
    if (!s) return null;
    const days = s.series.map((p) => p.period);
    const currencies = [...new Set(s.series.flatMap((p) => p.revenue.map((r) => r.currency)))].sort();
    const revenue = currencies.map((currency) => ({
      label: currency.toUpperCase(),
      values: s.series.map((p) => Number(p.revenue.find((r) => r.currency === currency)?.amount ?? 0)),
      currency,
    }));
    const licenses = [{ label: 'New licenses', values: s.series.map((p) => p.newLicenses) }];
    return { days, revenue, licenses };
  }, [s]);

  return (
    <Page title="Overview">
      <div class="segmented" role="group" aria-label="Period">
        {RANGES.map((days) => (
          <button type="button" class="secondary" aria-pressed={range === days} onClick={() => setRange(days)}>
            {days} days
          </button>
        ))}
      </div>
      <Loading loading={stats.loading} />
      <Alert error={stats.error} what="The overview could not be loaded" />
      {s && charts && (
        <>
          <ul class="tiles" aria-label="Totals">
            <li>
              <span class="tile-label">Active licenses</span>
              <span class="tile-value">{count(s.totals.activeLicenses)}</span>
            </li>
            <li>
              <span class="tile-label">Active machines</span>
              <span class="tile-value">{count(s.totals.activeMachines)}</span>
            </li>
            <li>
              <span class="tile-label">Monthly recurring revenue</span>
              <span class="tile-value">{amounts(s.totals.mrr)}</span>
            </li>
            <li>
              <span class="tile-label">Revenue, {range} days</span>
              <span class="tile-value">{amounts(s.totals.revenue)}</span>
            </li>
            <li>
              <span class="tile-label">New licenses, {range} days</span>
              <span class="tile-value">{count(s.totals.newLicenses)}</span>
            </li>
          </ul>
          <div class="charts">
            {charts.revenue.map((series) => (
              <figure>
                <figcaption>
                  Revenue in {series.label} per day: {money(series.values.reduce((a, b) => a + b, 0), series.currency)} over {range} days
                </figcaption>
                <Chart days={charts.days} series={[series]} format={(v) => money(v, series.currency)} />
              </figure>
            ))}
            {charts.revenue.length === 0 && <Empty>No revenue in these {range} days yet: share a checkout link (POST /checkout/init) to make your first sale.</Empty>}
            <figure>
              <figcaption>
                New licenses per day: {s.totals.newLicenses} over {range} days
              </figcaption>
              <Chart days={charts.days} series={charts.licenses} />
            </figure>
          </div>
          <details>
            <summary>The numbers per day as a table</summary>
            <Table label="Per day">
              <thead>
                <tr>
                  <th scope="col">Day</th>
                  <th scope="col">New licenses</th>
                  <th scope="col">Orders</th>
                  <th scope="col">Revenue</th>
                </tr>
              </thead>
              <tbody>
                {s.series.map((p) => (
                  <tr>
                    <td>{p.period}</td>
                    <td>{p.newLicenses}</td>
                    <td>{p.orders}</td>
                    <td>{amounts(p.revenue)}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </details>
          <section aria-labelledby="recent-orders">
            <h2 id="recent-orders">Recent orders</h2>
            <Rows
              label="Recent orders"
              list={{ items: s.recentOrders, loading: false, error: null }}
              empty="No orders yet. They appear here once a buyer pays at checkout."
              columns={['When', 'Customer', 'Amount', 'Status']}
              row={(o) => (
                <tr>
                  <td>{when(o.createdAt)}</td>
                  <td>{o.customerEmail}</td>
                  <td>{money(o.amount, o.currency)}</td>
                  <td>{o.status}</td>
                </tr>
              )}
            />
            <p>
              <Link to="/orders">All orders</Link>
            </p>
          </section>
          <section aria-labelledby="failing">
            <h2 id="failing">Failing webhook endpoints</h2>
            {s.failingWebhookEndpoints.length === 0 ? (
              <Empty>Every webhook endpoint is delivering.</Empty>
            ) : (
              <ul class="plain">
                {s.failingWebhookEndpoints.map((e) => (
                  <li>
                    <Link to={`/webhooks/${e.id}`}>{e.url}</Link>: {e.failedDeliveries} failed deliveries
                    {e.failingSince ? `, failing since ${day(e.failingSince)}` : ''}
                    {e.enabled ? '' : `; disabled${e.disabledReason ? ` (${e.disabledReason})` : ''}: open it to enable it again`}
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </Page>
  );
}
