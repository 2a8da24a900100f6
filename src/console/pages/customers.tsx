import { useState } from 'preact/hooks';
import { day } from '../format.ts';
import { useProducts } from '../products.ts';
import type { Customer } from '../types.ts';
import { Field, formValue, Link, Page, Rows, useList, SearchForm } from '../ui.tsx';

/** Everyone who holds one of the seller's licenses; search by the start of an e-mail address. */
export function CustomersPage() {
  const [email, setEmail] = useState('');
  const list = useList<Customer>('/developers/customers', { email });
  const products = useProducts();
  return (
    <Page title="Customers">
      <SearchForm label="Find customers" onSearch={(event) => setEmail(formValue(event, 'c-email'))}>
        <Field label="E-mail starts with" id="c-email" type="search" />
      </SearchForm>
      <Rows
        label="Customers"
        list={list}
        empty={email ? `No customer's address starts with "${email}".` : 'No customers yet: they appear once they hold a license (granted, bought or a trial).'}
        columns={['E-mail', 'Customer since', 'Licenses']}
        row={(c) => (
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
        )}
      />
    </Page>
  );
}
