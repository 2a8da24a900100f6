import { and, eq, isNull } from 'drizzle-orm';
import type { Customer } from '../../domain/customer.ts';
import type { CustomerRepository } from '../../ports/customer-repository.ts';
import { customers, savedCards } from './schema.ts';
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

  async setPhoneIfNone(id: string, phone: string): Promise<boolean> {
    // Concurrent updates of the row queue on its lock; each re-checks `phone IS NULL` after the
    // winner commits (READ COMMITTED), so exactly one sets it.
    const set = await this.db
      .update(customers)
      .set({ phone })
      .where(and(eq(customers.id, id), isNull(customers.phone)))
      .returning({ id: customers.id });
    return set.length === 1;
  }

  async changePhone(id: string, from: string, to: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const moved = await tx
        .update(customers)
        .set({ phone: to })
        .where(and(eq(customers.id, id), eq(customers.phone, from)))
        .returning({ id: customers.id });
      if (moved.length !== 1) return false;
      await tx.update(savedCards).set({ phone: to }).where(and(eq(savedCards.customerId, id), eq(savedCards.phone, from)));
      return true;
    });
  }
}
