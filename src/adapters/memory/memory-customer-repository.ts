import type { Customer } from '../../domain/customer.ts';
import type { CustomerRepository } from '../../ports/customer-repository.ts';
import { copy, copyOrNull, type MemoryTables, requireUnique } from './memory-tables.ts';

export class MemoryCustomerRepository implements CustomerRepository {
  constructor(private readonly tables: MemoryTables) {}

  async findOrCreate(candidate: Customer): Promise<Customer> {
    // No await between the lookup and the insert: concurrent callers cannot both create.
    const existing = [...this.tables.customers.values()].find((c) => c.email === candidate.email);
    if (existing) return copy(existing);
    requireUnique(this.tables.customers.has(candidate.id), 'customers.id');
    this.tables.customers.set(candidate.id, copy(candidate));
    return copy(candidate);
  }

  async findById(id: string): Promise<Customer | null> {
    return copyOrNull(this.tables.customers.get(id));
  }

  /** The e-mail as stored: callers normalize it first, as findOrCreate's candidates are. */
  async findByEmail(email: string): Promise<Customer | null> {
    return copyOrNull([...this.tables.customers.values()].find((c) => c.email === email));
  }

  async setPhoneIfNone(id: string, phone: string): Promise<boolean> {
    const customer = this.tables.customers.get(id);
    if (!customer || customer.phone !== null) return false;
    customer.phone = phone;
    return true;
  }

  /** No await between the check and the writes: as one transaction. */
  async changePhone(id: string, from: string, to: string): Promise<boolean> {
    const customer = this.tables.customers.get(id);
    if (!customer || customer.phone !== from) return false;
    customer.phone = to;
    for (const card of this.tables.savedCards.values()) {
      if (card.customerId === id && card.phone === from) card.phone = to;
    }
    return true;
  }
}
