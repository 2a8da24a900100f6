import { useState } from 'preact/hooks';
import { day } from '../format.ts';
import { useProducts } from '../products.ts';
import type { Customer } from '../types.ts';
import { Alert, Empty, Field, formValue, Link, Loading, Page, Pager, Table, useList } from '../ui.tsx';

/** Everyone who holds one of the seller's licenses; search by the start of an e-mail address. */
export function CustomersPage() {
  const [email, setEmail] = useState('');
  const list = useList<Customer>('/developers/customers', { email });
  const products = useProducts();
  return (
    <Page title="Customers">
      <form
        class="filters"
        role="search"
        aria-label="Find customers"
        onSubmit={(event) => {
          event.preventDefault();
          setEmail(formValue(event, 'c-email'));
        }}
      >
        <Field label="E-mail starts with" id="c-email" type="search" />
        <div class="row">
          <button type="submit">Search</button>
        </div>
      </form>
      <Loading loading={list.loading} />
      <Alert error={list.error} />
      {!list.loading && !list.error && list.items.length === 0 && (
        <Empty>{email ? `No customer's address starts with "${email}".` : 'No customers yet: they appear once they hold a license (granted, bought or a trial).'}</Empty>
      )}
      {list.items.length > 0 && (
        <Table label="Customers">
          <thead>
            <tr>
              <th scope="col">E-mail</th>
              <th scope="col">Customer since</th>
              <th scope="col">Licenses</th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((c) => (
              <tr>
                <td>{c.email}</td>
                <td>{day(c.firstSeenAt)}</td>
                <td>
                  <ul class="plain">
                    {c.licenses.map((l) => (
                      <li>
                        <Link to={`/licenses/${l.id}`}>{products.name(l.productId)}</Link> <span class="muted">{l.trial ? `${l.status}, trial` : l.status}</span>
                      </li>
                    ))}
                  </ul>
                  {c.moreLicenses && <Link to={`/licenses?email=${encodeURIComponent(c.email)}`}>All of {c.email}'s licenses</Link>}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <Pager list={list} label="Customers" />
    </Page>
  );
}
