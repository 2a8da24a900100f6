import { createProduct } from '../../../app/products/create-product.ts';
import { listProducts } from '../../../app/products/list-products.ts';
import { updateProduct } from '../../../app/products/update-product.ts';
import type { Product as DomainProduct } from '../../../domain/product.ts';
import type { Deps } from '../../../ports/deps.ts';
import { SECURITY, withSecretKey } from '../auth.ts';
import { errorsOf, IdParams, NewProductBody, Product, ProductChangesBody, ProductList, ProductListQuery } from '../schemas.ts';

const publicProduct = ({ developerId: _owner, ...product }: DomainProduct) => product;

export function productRoutes(deps: Deps) {
  const tags = ['Products'];
  return withSecretKey(deps)
    .post(
      '/developers/products',
      async ({ caller, body, set }) => {
        set.status = 201;
        return publicProduct(await createProduct(deps, caller.developerId, body));
      },
      {
        body: NewProductBody,
        response: { 201: Product, ...errorsOf(400, 401, 403, 413) },
        detail: { tags, summary: 'Create a product', security: SECURITY.secret },
      },
    )
    .get(
      '/developers/products',
      async ({ caller, query }) => {
        const page = await listProducts(deps, caller.developerId, query);
        return { data: page.data.map(publicProduct), hasMore: page.hasMore };
      },
      {
        query: ProductListQuery,
        response: { 200: ProductList, ...errorsOf(400, 401, 403) },
        detail: { tags, summary: 'List products, oldest first', description: 'Cursor pagination: pass the last id as startingAfter while hasMore.', security: SECURITY.secret },
      },
    )
    .patch(
      '/developers/products/:id',
      async ({ caller, params, body }) => {
        return publicProduct(await updateProduct(deps, caller.developerId, params.id, body));
      },
      {
        params: IdParams,
        body: ProductChangesBody,
        response: { 200: Product, ...errorsOf(400, 401, 403, 404, 413) },
        detail: { tags, summary: 'Update a product', description: 'Issued licenses keep the terms they were issued with.', security: SECURITY.secret },
      },
    );
}
