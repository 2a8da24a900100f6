import { eq } from 'drizzle-orm';
import type { Customer } from '../../domain/customer.ts';
import type { CustomerRepository } from '../../ports/customer-repository.ts';
import { customers } from './schema.ts';
import type { PostgresDb } from './postgres-store.ts';

export class PostgresCustomerRepository implements CustomerRepository {
  constructor(private readonly db: PostgresDb) {}

  async findOrCreate(candidate: Customer): Promise<Customer> {
    // The unique e-mail decides: one insert returns the row; the others, having waited for it to
    // commit, insert nothing and read the winner (READ COMMITTED: a new statement sees the commit).
    const [created] = await this.db.insert(customers).values(candidate).onConflictDoNothing({ target: customers.email }).returning();
    if (created) return created;
    return (await this.findByEmail(candidate.email))!;
  }

  async findById(id: string): Promise<Customer | null> {
    const [row] = await this.db.select().from(customers).where(eq(customers.id, id));
    return row ?? null;
  }

  /** The e-mail as stored: callers normalize it first, as findOrCreate's candidates are. */
  async findByEmail(email: string): Promise<Customer | null> {
    const [row] = await this.db.select().from(customers).where(eq(customers.email, email));
    return row ?? null;
  }

  async setPhone(id: string, phone: string): Promise<void> {
    await this.db.update(customers).set({ phone }).where(eq(customers.id, id));
  }
}
