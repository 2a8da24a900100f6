/** A buyer, known by e-mail across the whole service. */
export interface Customer {
  id: string;
  email: string;
  phone: string | null;
  createdAt: number;
}
