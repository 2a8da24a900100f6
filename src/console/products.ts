import { api, type ListPage } from './api.ts';
import type { Product } from './types.ts';
import { useLoad } from './ui.tsx';

/** The seller's products (the first 100), for pickers and for names in lists. */
export function useProducts() {
  const products = useLoad(() => api<ListPage<Product>>('GET', '/developers/products?limit=100'), []);
  const all = products.value?.data ?? [];
  return { all, error: products.error, name: (id: string) => all.find((p) => p.id === id)?.name ?? id };
}
