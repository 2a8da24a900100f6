/** A buyer, known by e-mail across the whole service. */
export interface Customer {
  id: string;
  email: string;
  /**
   * A phone number: the sign-in phone once `phoneVerifiedAt` is set. A phone without it (left by a
   * checkout before e-mail sign-in existed) is no factor of anything (docs/customers.md).
   */
  phone: string | null;
  /** When the phone was confirmed by an SMS code in a session that had proved the e-mail. */
  phoneVerifiedAt: number | null;
  createdAt: number;
}

/** The phone sign-in codes go to: only a confirmed one. */
export function signInPhone(customer: Pick<Customer, 'phone' | 'phoneVerifiedAt'> | null): string | null {
  return customer && customer.phoneVerifiedAt !== null ? customer.phone : null;
}

/** A new customer: no phone until one is confirmed in a session that proved the e-mail. */
export function newCustomer(id: string, email: string, now: number): Customer {
  return { id, email, phone: null, phoneVerifiedAt: null, createdAt: now };
}
