import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { fromMinor, money, toMinor, words } from '../format.ts';
import type { Product } from '../types.ts';
import { Field, FormEnd, formValue, Link, Page, Rows, Status, useAction, useList } from '../ui.tsx';

/** An optional whole number field: '' → null (unlimited / none). */
function count(text: string): number | null {
  return text === '' ? null : Number(text);
}

/** Everything the API lets a seller set on a product, for a new one or an existing one. */
function ProductForm(props: { product?: Product; onSaved: (product: Product) => void; onCancel?: () => void }) {
  const p = props.product;
  const action = useAction();
  const [interval, setBilling] = useState<string>(p?.interval ?? '');
  const prefix = p ? `edit-${p.id}` : 'new';
  const submit = (event: Event) => {
    event.preventDefault();
    const currency = formValue(event, `${prefix}-currency`).toLowerCase();
    const price = toMinor(formValue(event, `${prefix}-price`), currency || 'usd');
    const body: Record<string, unknown> = {
      name: formValue(event, `${prefix}-name`),
      price,
      currency,
      features: words(formValue(event, `${prefix}-features`)),
      interval: interval || null,
      licenseDays: count(formValue(event, `${prefix}-licenseDays`)),
      maxMachines: count(formValue(event, `${prefix}-maxMachines`)),
      trialDays: count(formValue(event, `${prefix}-trialDays`)),
    };
    const grace = formValue(event, `${prefix}-graceDays`);
    if (grace !== '') body.graceDays = Number(grace);
    const quota = formValue(event, `${prefix}-deactivations`);
    if (quota !== '') body.deactivationsPer30Days = Number(quota);
    if (p) body.active = (event.currentTarget as HTMLFormElement).querySelector<HTMLInputElement>(`#${prefix}-active`)!.checked;
    void action.run(async () => {
      if (price === null) throw new Error('The price is an amount such as 19.99.');
      const saved = p ? await api<Product>('PATCH', `/developers/products/${p.id}`, body) : await api<Product>('POST', '/developers/products', body);
      props.onSaved(saved);
      if (p) return null; // the form closes; the page says it was saved
      (event.target as HTMLFormElement).reset();
      return `Created ${saved.name}.`;
    });
  };
  return (
    <form onSubmit={submit} class="card grid-form" aria-label={p ? `Edit ${p.name}` : 'New product'}>
      <Field label="Name" id={`${prefix}-name`} required defaultValue={p?.name} />
      <Field label="Price" hint="e.g. 19.99" id={`${prefix}-price`} inputMode="decimal" required defaultValue={p ? fromMinor(p.price, p.currency) : ''} />
      <Field label="Currency" hint="ISO code, e.g. usd" id={`${prefix}-currency`} required pattern="[A-Za-z]{3}" defaultValue={p?.currency ?? 'usd'} />
      <div class="field">
        <label for={`${prefix}-interval`}>Billing</label>
        <select id={`${prefix}-interval`} value={interval} onChange={(e) => setBilling((e.target as HTMLSelectElement).value)}>
          <option value="">One-time payment</option>
          <option value="month">Subscription, monthly</option>
          <option value="year">Subscription, yearly</option>
        </select>
      </div>
      {interval ? (
        <Field label="License days" hint="a subscription's license lasts its paid period plus the grace days" id={`${prefix}-licenseDays`} disabled value="" />
      ) : (
        <Field label="License days" hint="empty: never expires" id={`${prefix}-licenseDays`} type="number" min={1} defaultValue={p?.licenseDays ?? ''} />
      )}
      <Field label="Grace days" hint="after a failed renewal" id={`${prefix}-graceDays`} type="number" min={0} defaultValue={p?.graceDays ?? ''} />
      <Field label="Trial days" hint="empty: no free trial" id={`${prefix}-trialDays`} type="number" min={1} defaultValue={p?.trialDays ?? ''} />
      <Field label="Machines per license" hint="empty: unlimited" id={`${prefix}-maxMachines`} type="number" min={1} defaultValue={p?.maxMachines ?? ''} />
      <Field label="Deactivations per 30 days" hint="per license" id={`${prefix}-deactivations`} type="number" min={0} defaultValue={p?.deactivationsPer30Days ?? ''} />
      <Field label="Features" hint="comma-separated, e.g. pro, export" id={`${prefix}-features`} defaultValue={p?.features.join(', ') ?? ''} />
      {p && (
        <div class="field check">
          <input type="checkbox" id={`${prefix}-active`} defaultChecked={p.active} />
          <label for={`${prefix}-active`}>On sale (active)</label>
        </div>
      )}
      <FormEnd
        action={action}
        submit={p ? 'Save product' : 'Create product'}
        buttons={
          props.onCancel && (
            <button type="button" class="secondary" onClick={props.onCancel}>
              Cancel
            </button>
          )
        }
      />
    </form>
  );
}

export function ProductsPage() {
  const list = useList<Product>('/developers/products');
  const [editing, setEditing] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  return (
    <Page title="Products">
      <section aria-labelledby="new-product">
        <h2 id="new-product">New product</h2>
        <ProductForm onSaved={() => list.reload()} />
      </section>
      <section aria-labelledby="all-products">
        <h2 id="all-products">Your products</h2>
        <Rows
          label="Products"
          list={list}
          empty="No products yet. Create one above, then grant a license or share a checkout link."
          columns={['Name', 'Price', 'Terms', 'Features', 'Id', '']}
          row={(p) => (
            <tr>
              <td>
                {p.name}
                {!p.active && <span class="tag">off sale</span>}
              </td>
              <td>
                {money(p.price, p.currency)}
                {p.interval ? ` / ${p.interval}` : ''}
              </td>
              <td class="small">
                {p.licenseDays ? `${p.licenseDays} days` : 'perpetual'}, {p.maxMachines ?? '∞'} machines, {p.deactivationsPer30Days} deactivations / 30 days
                {p.trialDays ? `, ${p.trialDays}-day trial` : ''}
                {p.graceDays ? `, ${p.graceDays} grace days` : ''}
              </td>
              <td>{p.features.join(', ') || '—'}</td>
              <td class="mono small">{p.id}</td>
              <td>
                <div class="row">
                  <button type="button" class="secondary small" onClick={() => setEditing(editing === p.id ? null : p.id)} aria-expanded={editing === p.id}>
                    Edit <span class="visually-hidden">{p.name}</span>
                  </button>
                  <Link to={`/licenses?productId=${p.id}`} class="small">
                    Licenses
                  </Link>
                </div>
              </td>
            </tr>
          )}
        />
        {list.items
          .filter((p) => p.id === editing)
          .map((p) => (
            <ProductForm
              product={p}
              onSaved={(product) => {
                setEditing(null);
                setSaved(`Saved ${product.name}.`);
                list.reload();
              }}
              onCancel={() => setEditing(null)}
            />
          ))}
        <Status message={saved} />
      </section>
    </Page>
  );
}
