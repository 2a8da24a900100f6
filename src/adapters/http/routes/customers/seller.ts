import { listCustomers } from '../../../../app/customers/list-customers.ts';
import type { Deps } from '../../../../ports/deps.ts';
import { withSecretKey } from '../../auth.ts';
import { sellerRead } from '../../schemas.ts';
import { CustomerList, CustomerListQuery } from './schemas.ts';

/** GET /developers/customers: who bought (or was granted) something from the caller, with those licenses. */
export function customerListRoutes(deps: Deps) {
  return withSecretKey(deps).get('/developers/customers', ({ caller, query }) => listCustomers(deps, caller.developerId, query), sellerRead(CustomerListQuery, CustomerList, {
    tags: ['Customers'],
    summary: 'List or search your customers',
    description:
      'Everyone who holds a license of yours, each with their licenses from you only (a buyer of several sellers appears to each separately). Newest first; with email (the start of an address, case-insensitive), matching customers in e-mail order. Cursor pagination: pass the last id as startingAfter while hasMore.',
  }));
}
