import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { when, words } from '../format.ts';
import { navigate } from '../router.ts';
import type { BulkRedelivery, Delivery, Endpoint, NewEndpoint, RotatedSecret } from '../types.ts';
import { Alert, Choice, Empty, Field, filterOptions, FormEnd, formValue, Link, Loading, Outcome, Page, Rows, ShownOnce, useAction, useConfirm, useLoad, useList } from '../ui.tsx';

const DELIVERY_STATUS_LABELS: Record<Delivery['status'], string> = { pending: 'Pending', succeeded: 'Succeeded', failed: 'Failed' };

function health(e: Endpoint): string {
  if (!e.enabled) return e.disabledReason ? `disabled (${e.disabledReason})` : 'disabled';
  return e.failingSince ? `failing since ${when(e.failingSince)}` : 'enabled';
}

/** Where events go: endpoints, each with a signing secret shown once at creation. */
export function WebhooksPage() {
  const list = useList<Endpoint>('/developers/webhook-endpoints');
  const action = useAction();
  const [created, setCreated] = useState<NewEndpoint | null>(null);
  const create = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const events = words(formValue(event, 'w-events'));
    const description = formValue(event, 'w-description');
    const body = { url: formValue(event, 'w-url'), events: events.length ? events : undefined, description: description || undefined };
    void action.run(async () => {
      const endpoint = await api<NewEndpoint>('POST', '/developers/webhook-endpoints', body);
      setCreated(endpoint);
      form.reset();
      list.reload();
      return `Endpoint ${endpoint.url} created.`;
    });
  };
  return (
    <Page title="Webhooks">
      <section aria-labelledby="new-endpoint">
        <h2 id="new-endpoint">New endpoint</h2>
        <form class="card grid-form" onSubmit={create} aria-label="New endpoint">
          <Field label="URL" hint="https://… (http:// only to localhost in development)" id="w-url" type="url" required />
          <Field label="Events" hint="comma-separated; empty: every event" id="w-events" />
          <Field label="Description" id="w-description" />
          <FormEnd action={action} submit="Create endpoint">
            {created?.secret && (
              <>
                <ShownOnce label="Signing secret" id="endpoint-secret" value={created.secret} />
                <Link to={`/webhooks/${created.id}`}>Open {created.url}</Link>
              </>
            )}
          </FormEnd>
        </form>
      </section>
      <section aria-labelledby="endpoints">
        <h2 id="endpoints">Endpoints</h2>
        <Rows
          label="Endpoints"
          list={list}
          empty="No endpoints yet. Add one above to hear about orders, licenses and subscriptions as they happen."
          columns={['URL', 'Events', 'State']}
          row={(e) => (
            <tr>
              <td>
                <Link to={`/webhooks/${e.id}`}>{e.url}</Link>
                {e.description && <span class="muted small"> {e.description}</span>}
              </td>
              <td>{e.events?.join(', ') ?? 'every event'}</td>
              <td>{health(e)}</td>
            </tr>
          )}
        />
      </section>
    </Page>
  );
}

/** One endpoint: test, rotate its secret, disable, delete; its delivery log with attempts, redeliver. */
export function EndpointPage(props: { id: string }) {
  const endpoint = useLoad(() => api<Endpoint>('GET', `/developers/webhook-endpoints/${props.id}`), [props.id]);
  const [status, setStatus] = useState('');
  const deliveries = useList<Delivery>(`/developers/webhook-endpoints/${props.id}/deliveries`, { status });
  const action = useAction();
  const confirm = useConfirm();
  const [secret, setSecret] = useState<string | null>(null);
  const [open, setOpen] = useState<Delivery | null>(null);
  const e = endpoint.value;

  const test = () =>
    void action.run(async () => {
      const delivery = await api<Delivery>('POST', `/developers/webhook-endpoints/${props.id}/test`);
      deliveries.reload();
      return `Test event sent: ${delivery.status}${delivery.lastStatus ? ` (HTTP ${delivery.lastStatus})` : ''}.`;
    });
  const rotate = async () => {
    if (!(await confirm.ask('Rotate the signing secret?', 'A new secret signs from now on; the old one keeps verifying for 24 hours so you can deploy the new one.', 'Rotate secret'))) return;
    void action.run(async () => {
      const answer = await api<RotatedSecret>('POST', `/developers/webhook-endpoints/${props.id}/rotate-secret`);
      setSecret(answer.secret);
      return `Secret rotated; the old one works until ${when(answer.previousSecretExpiresAt)}.`;
    });
  };
  const toggle = async () => {
    if (e!.enabled && !(await confirm.ask('Disable this endpoint?', 'No event is sent to it until you enable it again.', 'Disable endpoint'))) return;
    void action.run(async () => {
      endpoint.setValue(await api<Endpoint>('PATCH', `/developers/webhook-endpoints/${props.id}`, { enabled: !e!.enabled }));
      return e!.enabled ? 'Endpoint disabled.' : 'Endpoint enabled.';
    });
  };
  const remove = async () => {
    if (!(await confirm.ask('Delete this endpoint?', 'It stops receiving events and its delivery log goes with it.', 'Delete endpoint'))) return;
    void action.run(async () => {
      await api('DELETE', `/developers/webhook-endpoints/${props.id}`);
      navigate('/webhooks');
    });
  };
  const redeliverFailed = () =>
    void action.run(async () => {
      const to = Date.now();
      const answer = await api<BulkRedelivery>('POST', `/developers/webhook-endpoints/${props.id}/redeliver`, { from: to - 30 * 86_400_000, to });
      deliveries.reload();
      return `${answer.redelivered} failed deliveries of the last 30 days are going out again${answer.hasMore ? '; there are more: press again' : ''}.`;
    });
  const show = (id: string) =>
    void action.run(async () => {
      setOpen(await api<Delivery>('GET', `/developers/webhook-deliveries/${id}`));
    });
  const redeliver = (id: string) =>
    void action.run(async () => {
      const delivery = await api<Delivery>('POST', `/developers/webhook-deliveries/${id}/redeliver`);
      deliveries.reload();
      if (open?.id === id) setOpen(await api<Delivery>('GET', `/developers/webhook-deliveries/${id}`));
      return `Redelivered: ${delivery.status}.`;
    });

  return (
    <Page title={e ? `Endpoint ${e.url}` : 'Endpoint'} actions={<Link to="/webhooks">All endpoints</Link>}>
      {confirm.element}
      <Loading loading={endpoint.loading} />
      <Alert error={endpoint.error} />
      {e && (
        <>
          <dl class="facts">
            <dt>State</dt>
            <dd>{health(e)}</dd>
            <dt>Events</dt>
            <dd>{e.events?.join(', ') ?? 'every event'}</dd>
            <dt>Id</dt>
            <dd class="mono small">{e.id}</dd>
          </dl>
          <div class="row">
            <button type="button" onClick={test} disabled={action.busy}>
              Send a test event
            </button>
            <button type="button" class="secondary" onClick={rotate} disabled={action.busy}>
              Rotate secret
            </button>
            <button type="button" class="secondary" onClick={toggle} disabled={action.busy}>
              {e.enabled ? 'Disable endpoint' : 'Enable endpoint'}
            </button>
            <button type="button" class="danger" onClick={remove} disabled={action.busy}>
              Delete endpoint
            </button>
          </div>
        </>
      )}
      <Outcome action={action} />
      {secret && <ShownOnce label="New signing secret" id="rotated-secret" value={secret} />}
      <section aria-labelledby="deliveries">
        <h2 id="deliveries">Deliveries</h2>
        <div class="row">
          <button type="button" class="secondary" onClick={redeliverFailed} disabled={action.busy || !e?.enabled}>
            Redeliver failed deliveries of the last 30 days
          </button>
        </div>
        <Choice label="Status" id="d-status" value={status} onChange={setStatus} options={filterOptions('Any', DELIVERY_STATUS_LABELS)} />
        <Rows
          label="Deliveries"
          list={deliveries}
          empty="No deliveries yet. Send a test event to check the endpoint answers."
          columns={['Event', 'Status', 'Attempts', 'Last attempt', '']}
          row={(d) => (
            <tr>
              <td class="mono small">{d.eventType}</td>
              <td>
                {d.status}
                {d.lastStatus ? ` (HTTP ${d.lastStatus})` : ''}
                {d.lastError && <span class="muted small"> {d.lastError}</span>}
              </td>
              <td>{d.attempts}</td>
              <td>{when(d.lastAttemptAt)}</td>
              <td>
                <div class="row">
                  <button type="button" class="secondary small" onClick={() => show(d.id)}>
                    Attempts <span class="visually-hidden">of {d.id}</span>
                  </button>
                  <button type="button" class="secondary small" onClick={() => redeliver(d.id)} disabled={action.busy}>
                    Redeliver <span class="visually-hidden">{d.id}</span>
                  </button>
                </div>
              </td>
            </tr>
          )}
        />
        {open && (
          <section aria-labelledby="attempts" class="card">
            <h3 id="attempts">
              Attempts of {open.eventType} <span class="mono small">{open.id}</span>
            </h3>
            <ol>
              {(open.attemptLog ?? []).map((a) => (
                <li>
                  {when(a.at)}: {a.status ? `HTTP ${a.status}` : (a.error ?? 'no answer')} in {a.durationMs} ms
                </li>
              ))}
            </ol>
            {(open.attemptLog ?? []).length === 0 && <Empty>Not attempted yet.</Empty>}
            <button type="button" class="secondary small" onClick={() => setOpen(null)}>
              Close attempts
            </button>
          </section>
        )}
      </section>
    </Page>
  );
}
