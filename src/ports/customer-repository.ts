import type { Customer } from '../domain/customer.ts';

export interface CustomerRepository {
  /** The customer with this e-mail, created from `candidate` when there is none (race-safe). */
  findOrCreate(candidate: Customer): Promise<Customer>;
  findById(id: string): Promise<Customer | null>;
  findByEmail(email: string): Promise<Customer | null>;
  /**
   * Gives a customer without a phone the phone a checkout collected. A phone on file is never
   * replaced this way (a checkout does not prove who is paying): false when there was one already,
   * whatever it is, or no such customer. Of concurrent calls, exactly one can succeed.
   */
  setPhoneIfNone(id: string, phone: string): Promise<boolean>;
  /**
   * The verified change: `from` becomes `to` only while `from` is still the phone on file, and in
   * the same transaction the customer's saved cards tied to `from` move to `to`. False (nothing
   * changed) when the phone on file is no longer `from`.
   */
  changePhone(id: string, from: string, to: string): Promise<boolean>;
}
