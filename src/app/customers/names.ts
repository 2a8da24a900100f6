import type { Deps } from '../../ports/deps.ts';

/**
 * The names a buyer's lists show beside each record: its product's and its seller's. Each is looked
 * up once per list, however many records share it (a customer holds a handful).
 */
export function nameLookup(deps: Pick<Deps, 'products' | 'developers'>) {
  const products = new Map<string, Promise<{ name: string; price: number; currency: string } | null>>();
  const sellers = new Map<string, Promise<string>>();
  const product = (id: string) => {
    if (!products.has(id)) products.set(id, deps.products.findById(id));
    return products.get(id)!;
  };
  return {
    product,
    productName: async (id: string) => (await product(id))?.name ?? '',
    sellerName: (developerId: string) => {
      if (!sellers.has(developerId)) sellers.set(developerId, deps.developers.findById(developerId).then((d) => d?.name ?? ''));
      return sellers.get(developerId)!;
    },
  };
}
