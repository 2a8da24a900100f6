import { eq } from 'drizzle-orm';
import type { Customer } from '../../domain/customer.ts';
import type { CustomerRepository } from '../../ports/customer-repository.ts';
import { customers } from './schema.ts';
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

  async setPhone(id: string, phone: string): Promise<void> {
    this.db.update(customers).set({ phone }).where(eq(customers.id, id)).run();
  }
}
