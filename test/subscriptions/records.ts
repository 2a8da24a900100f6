import type { Shop } from '../checkout/shop.ts';

/** A license's orders as stored, oldest first: what was charged for it. */
export const ordersOf = (shop: Shop, licenseId: string) =>
  shop.store.sqlite.query('SELECT source, amount FROM orders WHERE license_id = ? ORDER BY created_at').all(licenseId) as { source: string; amount: number }[];

/** The license.* events written for a license, in order: what the seller's webhooks hear of it. */
export const licenseEventsOf = (shop: Shop, licenseId: string) =>
  (shop.store.sqlite.query('SELECT type FROM outgoing_events WHERE data LIKE ? ORDER BY created_at, rowid').all(`%${licenseId}%`) as { type: string }[])
    .map((e) => e.type)
    .filter((type) => type.startsWith('license.'));
