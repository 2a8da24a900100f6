import { useState } from 'preact/hooks';
import { api, withQuery } from '../api.ts';
import { day, when, words } from '../format.ts';
import { useProducts } from '../products.ts';
import type { Activations, EventItem, IssuedLicense, License, LicenseDetail } from '../types.ts';
import { Alert, Choice, CopyButton, Empty, Field, filterOptions, FormEnd, formValue, Link, Loading, Outcome, Page, Pager, Rows, ShownOnce, Submit, useAction, useConfirm, useLoad, useList, SearchForm } from '../ui.tsx';

const STATUS_LABELS: Record<License['status'], string> = { active: 'Active', expired: 'Expired', revoked: 'Revoked' };

function dayStart(text: string): number | undefined {
  return text ? Date.parse(`${text}T00:00:00Z`) : undefined;
}

/** Grant a license by hand (a gift, a reseller's sale, a replacement): the key is shown once here. */
function GrantForm(props: { onGranted: () => void }) {
  const products = useProducts();
  const action = useAction();
  const [granted, setGranted] = useState<IssuedLicense | null>(null);
  const submit = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const body = {
      productId: formValue(event, 'grant-product'),
      email: formValue(event, 'grant-email'),
      features: words(formValue(event, 'grant-features')),
      notify: form.querySelector<HTMLInputElement>('#grant-notify')!.checked,
    };
    void action.run(async () => {
      const answer = await api<IssuedLicense>('POST', '/developers/licenses', body.features.length ? body : { ...body, features: undefined });
      setGranted(answer);
      props.onGranted();
      return `Granted license ${answer.license.id} to ${body.email}.`;
    });
  };
  if (products.all.length === 0) return products.error ? <Alert error={products.error} /> : <Empty>Create a product first (Products), then grant its licenses here.</Empty>;
  return (
    <form class="card grid-form" onSubmit={submit} aria-label="Grant a license">
      <Choice label="Product" id="grant-product" required options={products.all.map((p) => [p.id, p.name])} />
      <Field label="Customer e-mail" id="grant-email" type="email" required />
      <Field label="Features" hint="comma-separated, added to the product's" id="grant-features" />
      <div class="field check">
        <input type="checkbox" id="grant-notify" defaultChecked />
        <label for="grant-notify">E-mail the key to the customer</label>
      </div>
      <FormEnd action={action} submit="Grant license">
        {granted && (
          <>
            <ShownOnce label="License key" id="granted-key" value={granted.licenseKey} />
            <Link to={`/licenses/${granted.license.id}`}>Open license {granted.license.id}</Link>
          </>
        )}
      </FormEnd>
    </form>
  );
}

/** Every license, with the API's filters (docs/lists.md) and search by the customer's e-mail. */
export function LicensesPage() {
  const initial = new URLSearchParams(location.search);
  const [filters, setFilters] = useState({ productId: initial.get('productId') ?? '', email: initial.get('email') ?? '', status: '', trial: '', createdAfter: '', createdBefore: '' });
  const products = useProducts();
  const list = useList<License>('/developers/licenses', {
    productId: filters.productId,
    email: filters.email,
    status: filters.status,
    trial: filters.trial,
    createdAfter: dayStart(filters.createdAfter),
    createdBefore: dayStart(filters.createdBefore),
  });
  const search = (event: Event) =>
    setFilters({
      productId: formValue(event, 'f-product'),
      email: formValue(event, 'f-email'),
      status: formValue(event, 'f-status'),
      trial: formValue(event, 'f-trial'),
      createdAfter: formValue(event, 'f-after'),
      createdBefore: formValue(event, 'f-before'),
    });
  const filtered = Object.values(filters).some(Boolean);
  return (
    <Page title="Licenses">
      <details>
        <summary>Grant a license</summary>
        <GrantForm onGranted={() => list.reload()} />
      </details>
      <SearchForm label="Find licenses" onSearch={search}>
        <Field label="Customer e-mail" id="f-email" type="email" defaultValue={filters.email} />
        <div class="field">
          <label for="f-product">Product</label>
          <select id="f-product" name="f-product" defaultValue={filters.productId}>
            <option value="">Any product</option>
            {products.all.map((p) => (
              <option value={p.id} selected={p.id === filters.productId}>
                {p.name}
              </option>
            ))}
          </select>
        </div>
        <Choice label="Status" id="f-status" options={filterOptions('Any status', STATUS_LABELS)} />
        <Choice label="Kind" id="f-trial" options={[['', 'Paid, granted and trials'], ['false', 'Paid or granted'], ['true', 'Free trials']]} />
        <Field label="Issued from" id="f-after" type="date" />
        <Field label="Issued before" id="f-before" type="date" />
      </SearchForm>
      <Rows
        label="Licenses"
        list={list}
        empty={filtered ? 'No license matches these filters: widen them or clear the e-mail.' : 'No licenses yet. Grant one above, or sell one through checkout.'}
        columns={['License', 'Customer', 'Product', 'Status', 'Issued', 'Expires']}
        row={(l) => (
          <tr>
            <td class="mono small">
              <Link to={`/licenses/${l.id}`}>{l.id}</Link>
            </td>
            <td>{l.customerEmail}</td>
            <td>{products.name(l.productId)}</td>
            <td>
              {l.status}
              {l.trial && <span class="tag">trial</span>}
            </td>
            <td>{day(l.issuedAt)}</td>
            <td>{l.expiresAt ? day(l.expiresAt) : 'never'}</td>
          </tr>
        )}
      />
    </Page>
  );
}

/** One license: its key (copy, resend), its machines (remove, limit), revoke, its events. */
export function LicensePage(props: { id: string }) {
  const license = useLoad(() => api<LicenseDetail>('GET', `/licenses/${props.id}`), [props.id]);
  const machines = useLoad(() => api<Activations>('GET', `/licenses/${props.id}/activations`), [props.id]);
  const events = useList<EventItem>('/developers/events', { licenseId: props.id }, 10);
  const products = useProducts();
  const action = useAction();
  const confirm = useConfirm();
  const l = license.value;

  const resend = () =>
    void action.run(async () => {
      await api('POST', `/licenses/${props.id}/resend`);
      return 'The key is on its way to the customer again.';
    });
  const revoke = async () => {
    if (!(await confirm.ask('Revoke this license?', 'Validation answers "revoked" from now on, on every machine. This cannot be undone.', 'Revoke license'))) return;
    void action.run(async () => {
      license.setValue(await api<LicenseDetail>('POST', `/licenses/${props.id}/revoke`));
      events.reload();
      return 'License revoked.';
    });
  };
  const remove = async (activationId: string, name: string) => {
    if (!(await confirm.ask(`Remove ${name}?`, 'The machine loses its seat; it may activate again while seats are free.', 'Remove machine'))) return;
    void action.run(async () => {
      machines.setValue(await api<Activations>('DELETE', `/licenses/${props.id}/activations/${activationId}`));
      return `Removed ${name}.`;
    });
  };
  const ownEntitlements = (held: LicenseDetail) => {
    const product = new Set((products.all.find((p) => p.id === held.productId)?.features ?? []).map((f) => f.toLowerCase()));
    return held.features.filter((f) => !product.has(f.toLowerCase()));
  };
  const setEntitlements = (event: Event) => {
    event.preventDefault();
    const entitlements = words(formValue(event, 'own-entitlements'));
    const before = l?.licenseKey;
    void action.run(async () => {
      const answer = await api<IssuedLicense>('PUT', `/licenses/${props.id}/entitlements`, { entitlements });
      license.setValue({ ...answer.license, licenseKey: answer.licenseKey });
      events.reload();
      const held = `This license now holds ${answer.license.features.join(', ') || 'no entitlements'}.`;
      return answer.licenseKey === before ? held : `${held} Its key was re-signed: the app picks it up on its next online check, or resend it.`;
    });
  };
  const setLimit = (event: Event) => {
    event.preventDefault();
    const text = formValue(event, 'max-machines');
    void action.run(async () => {
      machines.setValue(await api<Activations>('PATCH', `/licenses/${props.id}`, { maxMachines: text === '' ? null : Number(text) }));
      return text === '' ? 'This license now has unlimited machines.' : `This license now allows ${text} machines.`;
    });
  };

  return (
    <Page title={`License ${props.id}`} actions={<Link to="/licenses">All licenses</Link>}>
      {confirm.element}
      <Loading loading={license.loading} />
      <Alert error={license.error} />
      <Outcome action={action} />
      {l && (
        <>
          <dl class="facts">
            <dt>Status</dt>
            <dd>{l.status}</dd>
            <dt>Product</dt>
            <dd>{products.name(l.productId)}</dd>
            <dt>Customer</dt>
            <dd class="mono small">{l.customerId}</dd>
            <dt>Features</dt>
            <dd>{l.features.join(', ') || '—'}</dd>
            <dt>Issued</dt>
            <dd>{when(l.issuedAt)}</dd>
            <dt>Expires</dt>
            <dd>{l.expiresAt ? when(l.expiresAt) : 'never'}</dd>
          </dl>
          {l.licenseKey && <KeyBox value={l.licenseKey} />}
          {l.status !== 'revoked' && (
            <form class="row end" onSubmit={setEntitlements} aria-label="Entitlements">
              <Field
                label="Own entitlements"
                hint="comma-separated, besides the product's; the key is re-signed"
                id="own-entitlements"
                key={`${l.licenseKey}:${products.all.length}`}
                defaultValue={ownEntitlements(l).join(', ')}
              />
              <Submit action={action} class="secondary">Set entitlements</Submit>
            </form>
          )}
          <div class="row">
            <button type="button" class="secondary" onClick={resend} disabled={action.busy || l.status === 'revoked'}>
              Resend key by e-mail
            </button>
            <button type="button" class="danger" onClick={revoke} disabled={action.busy || l.status === 'revoked'}>
              Revoke license
            </button>
          </div>
        </>
      )}
      <section aria-labelledby="machines">
        <h2 id="machines">Machines</h2>
        <Alert error={machines.error} what="Its machines could not be loaded" />
        {machines.value && (
          <>
            <form class="row end" onSubmit={setLimit}>
              <Field label="Machines allowed" hint="empty: unlimited" id="max-machines" type="number" min={1} defaultValue={machines.value.maxMachines ?? ''} />
              <Submit action={action} class="secondary">Set limit</Submit>
            </form>
            <Rows
              label="Machines"
              list={{ items: machines.value.data, loading: false, error: null }}
              empty="No machine uses this license yet. The app activates one with POST /licenses/activate."
              columns={['Name', 'Fingerprint', 'Activated', 'Last seen', '']}
              row={(m) => (
                <tr>
                  <td>{m.name ?? '—'}</td>
                  <td class="mono small">{m.machineFingerprint}</td>
                  <td>{when(m.createdAt)}</td>
                  <td>{when(m.lastSeenAt)}</td>
                  <td>
                    <button type="button" class="secondary small" onClick={() => remove(m.id, m.name ?? m.machineFingerprint)} disabled={action.busy}>
                      Remove {m.name ?? m.machineFingerprint}
                    </button>
                  </td>
                </tr>
              )}
            />
          </>
        )}
      </section>
      <section aria-labelledby="events">
        <h2 id="events">Events</h2>
        <Alert error={events.error} what="The license's events could not be loaded" />
        {!events.loading && !events.error && events.items.length === 0 && <Empty>Nothing has happened to this license yet.</Empty>}
        {events.items.length > 0 && (
          <ul class="plain events">
            {events.items.map((e) => (
              <li>
                <span class="mono">{e.type}</span> <span class="muted">{when(e.createdAt)}</span>
              </li>
            ))}
          </ul>
        )}
        <Pager list={events} label="Events" />
      </section>
    </Page>
  );
}

function KeyBox(props: { value: string }) {
  return (
    <div class="field">
      <label for="license-key">License key</label>
      <textarea id="license-key" readOnly rows={3} class="mono small" value={props.value} />
      <CopyButton value={props.value} target="license-key" label="Copy key" />
    </div>
  );
}
