import { and, eq, isNull } from 'drizzle-orm';
import type { Customer } from '../../domain/customer.ts';
import type { CustomerRepository } from '../../ports/customer-repository.ts';
import { customers, savedCards } from './schema.ts';
import type { SqliteDb } from './sqlite-store.ts';

export class SqliteCustomerRepository implements CustomerRepository {
  constructor(private readonly db: SqliteDb) {}

  async findOrCreate(candidate: Customer): Promise<Customer> {
    this.db.insert(customers).values(candidate).onConflictDoNothing({ target: customers.email }).run();
    return this.db.select().from(customers).where(eq(customers.email, candidate.email)).get()!;
  }

  async findById(id: string): Promise<Customer | null> {
    return this.db.select().from(customers).where(eq(customers.id, id)).get() ?? null;
  }

  /** The e-mail as stored: callers normalize it first, as findOrCreate's candidates are. */
  async findByEmail(email: string): Promise<Customer | null> {
    return this.db.select().from(customers).where(eq(customers.email, email)).get() ?? null;
  }

  async setPhoneIfNone(id: string, phone: string): Promise<boolean> {
    const set = this.db
      .update(customers)
      .set({ phone })
      .where(and(eq(customers.id, id), isNull(customers.phone)))
      .returning({ id: customers.id })
      .all();
    return set.length === 1;
  }

  async changePhone(id: string, from: string, to: string): Promise<boolean> {
    return this.db.transaction((tx) => {
      const moved = tx
        .update(customers)
        .set({ phone: to })
        .where(and(eq(customers.id, id), eq(customers.phone, from)))
        .returning({ id: customers.id })
        .all();
      if (moved.length !== 1) return false;
      tx.update(savedCards).set({ phone: to }).where(and(eq(savedCards.customerId, id), eq(savedCards.phone, from))).run();
      return true;
    });
  }
}
