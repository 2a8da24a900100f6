import type { Customer } from '../domain/customer.ts';

export interface CustomerRepository {
  /** The customer with this e-mail, created from `candidate` when there is none (race-safe). */
  findOrCreate(candidate: Customer): Promise<Customer>;
  findById(id: string): Promise<Customer | null>;
  findByEmail(email: string): Promise<Customer | null>;
  /** Records the phone number a processor collected (the latest one wins). */
  setPhone(id: string, phone: string): Promise<void>;
}
