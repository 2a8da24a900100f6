import { and, eq, isNull } from 'drizzle-orm';
import type { Customer } from '../../../domain/customer.ts';
import type { CustomerRepository } from '../../../ports/customer-repository.ts';
import { oneOrNull, type SqlStore } from '../sql-store.ts';

export class DrizzleCustomerRepository implements CustomerRepository {
  constructor(private readonly store: SqlStore) {}

  async findOrCreate(candidate: Customer): Promise<Customer> {
    const { customers } = this.store.tables;
    // The unique e-mail decides: one insert returns the row; the others insert nothing and read the
    // winner (on PostgreSQL, having waited for it to commit: READ COMMITTED, a new statement sees it).
    const [created] = await this.store.db.insert(customers).values(candidate).onConflictDoNothing({ target: customers.email }).returning();
    if (created) return created;
    return (await this.findByEmail(candidate.email))!;
  }

  async findById(id: string): Promise<Customer | null> {
    const { customers } = this.store.tables;
    return oneOrNull(this.store.db.select().from(customers).where(eq(customers.id, id)));
  }

  /** The e-mail as stored: callers normalize it first, as findOrCreate's candidates are. */
  async findByEmail(email: string): Promise<Customer | null> {
    const { customers } = this.store.tables;
    return oneOrNull(this.store.db.select().from(customers).where(eq(customers.email, email)));
  }

  async addPhone(id: string, phone: string, at: number): Promise<boolean> {
    const { customers } = this.store.tables;
    // One conditional statement: on PostgreSQL concurrent updates queue on the row's lock and each
    // re-checks `phone_verified_at IS NULL` after the winner commits, so exactly one sets it.
    const set = await this.store.db
      .update(customers)
      .set({ phone, phoneVerifiedAt: at })
      .where(and(eq(customers.id, id), isNull(customers.phoneVerifiedAt)))
      .returning({ id: customers.id });
    return set.length === 1;
  }

  async changePhone(id: string, from: string, to: string, at: number): Promise<boolean> {
    return this.store.transactions.changePhone(id, from, to, at);
  }
}
