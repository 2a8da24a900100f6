import type { Customer } from '../domain/customer.ts';

export interface CustomerRepository {
  /** The customer with this e-mail, created from `candidate` when there is none (race-safe). */
  findOrCreate(candidate: Customer): Promise<Customer>;
  findById(id: string): Promise<Customer | null>;
  findByEmail(email: string): Promise<Customer | null>;
  /**
   * The customer's first confirmed phone: sets it (replacing an unconfirmed one) only while the
   * customer has no confirmed phone. False when one was confirmed meanwhile, or no such customer.
   * Of concurrent calls, exactly one can succeed.
   */
  addPhone(id: string, phone: string, at: number): Promise<boolean>;
  /**
   * The verified change: `from` becomes `to` (confirmed at `at`) only while `from` is still the
   * confirmed phone, and in the same transaction the customer's saved cards tied to `from` move to
   * `to`. False (nothing changed) when the confirmed phone is no longer `from`.
   */
  changePhone(id: string, from: string, to: string, at: number): Promise<boolean>;
}
