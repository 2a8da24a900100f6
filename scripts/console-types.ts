/**
 * Writes the console's API types (src/console/api-types.ts, committed) from the OpenAPI document
 * the service serves (GET /v1/openapi.json) through openapi-typescript, so the console reads the
 * answers the server documents and never a shape written by hand. A fresh clone typechecks without
 * a build step; test/build/console-types.test.ts regenerates and compares.
 *
 * `bun run build:console-types` writes the file; `consoleTypesModule()` is what the test compares with.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createHttpApp } from '../src/adapters/http/server.ts';
import { openSqliteStore } from '../src/adapters/sqlite/sqlite-store.ts';
import { jsonLogger } from '../src/adapters/system/logger.ts';
import { systemClock } from '../src/adapters/system/system-clock.ts';
import { composeDeps } from '../src/compose.ts';
import { DEFAULT_SETTINGS } from '../src/domain/settings.ts';

const ROOT = join(import.meta.dir, '..');

type Schema = Record<string, unknown>;
type Operation = { responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> };
type ServedDocument = { openapi: string; info: unknown; paths: Record<string, Record<string, Operation>> };
export const CONSOLE_TYPES = join(ROOT, 'src/console/api-types.ts');

/** The document as a service with the default settings serves it (sandbox routes included). */
async function servedDocument(): Promise<ServedDocument> {
  const store = openSqliteStore(':memory:');
  const deps = composeDeps({ store, clock: systemClock, masterKey: new Uint8Array(randomBytes(32)), settings: DEFAULT_SETTINGS });
  const app = createHttpApp(deps, { log: jsonLogger('silent'), ping: async () => true, publicBaseUrl: DEFAULT_SETTINGS.issuer, version: 'console-types', sandboxSms: true });
  const response = await app.handle(new Request(`${DEFAULT_SETTINGS.apiBaseUrl}/openapi.json`));
  if (!response.ok) throw new Error(`GET /v1/openapi.json answered ${response.status}`);
  return response.json() as never;
}

type OpenapiTypescript = typeof import('openapi-typescript');

/**
 * openapi-typescript builds its output with the TypeScript 5 compiler API, which the project's
 * TypeScript 7 (a native compiler) does not have: it is bundled here against `typescript5`.
 */
async function loadOpenapiTypescript(): Promise<OpenapiTypescript> {
  const built = await Bun.build({
    entrypoints: [Bun.resolveSync('openapi-typescript', ROOT).replace(/\.cjs$/, '.mjs')],
    target: 'bun',
    format: 'esm',
    plugins: [{ name: 'typescript5', setup: (build) => void build.onResolve({ filter: /^typescript$/ }, () => ({ path: Bun.resolveSync('typescript5', ROOT) })) }],
  });
  if (!built.success) throw new AggregateError(built.logs, 'openapi-typescript did not build');
  const module = join(ROOT, 'node_modules/.cache/openapi-typescript.mjs');
  await Bun.write(module, built.outputs[0]!);
  return import(module);
}

/** The seller's routes, which the console calls: the buyer's, the checkout's and the pages are not its business. */
const CONSOLE_PATHS = /^\/v1\/(developers\/|licenses\/\{id\}(\/|$)|connect\/)/;


/**
 * What the console reads of the document: the JSON answers of its routes when they succeed (api.ts
 * reads every error alike), each a schema of `components.schemas` named by its route, method and
 * status (`DevelopersStatsGet200` for GET /v1/developers/stats; a list's item `…DataItem`), without
 * the prose and examples (the reference has them). The routes themselves stay out: openapi-typescript
 * would write their parameters, headers and absent methods again for every route, and the console
 * reads none of them.
 */
function consolePart(document: ServedDocument): unknown {
  const answers = Object.entries(document.paths)
    .filter(([path]) => CONSOLE_PATHS.test(path))
    .flatMap(([path, methods]) => Object.entries(methods).flatMap(([method, operation]) => Object.entries(operation.responses ?? {})
      .filter(([status]) => status.startsWith('2'))
      .flatMap(([status, response]) => {
        const schema = response.content?.['application/json']?.schema;
        const name = pascalCase([...routeWords(path), method, status]);
        if (!schema) return [];
        const item = pageItem(schema);
        return [item ? [`${name}DataItem`, item] as const : [name, schema] as const];
      })));
  const schemas = withoutProse(Object.fromEntries(answers)) as Record<string, Schema>;
  return { openapi: document.openapi, info: document.info, paths: {}, components: { schemas: withExtensions(withSharedShapes(schemas)) } };
}

/**
 * The item of a list answer in the API's cursor convention (`data` and `hasMore`, docs/lists.md): the
 * console says that page once (`ListPage` in api.ts), so the module names the item, not every page.
 */
function pageItem(schema: Schema): Schema | undefined {
  const { data, hasMore } = (schema.properties ?? {}) as Record<string, Schema | undefined>;
  const isPage = Object.keys(schema.properties ?? {}).length === 2 && data?.type === 'array' && hasMore?.type === 'boolean'
    && JSON.stringify(schema.required) === JSON.stringify(['data', 'hasMore']);
  return isPage ? (data.items as Schema) : undefined;
}

/** A route's words: `/v1/licenses/{id}/activations` says licenses, by, id, activations. */
const routeWords = (path: string) => path.split('/').filter((segment) => segment !== '' && segment !== 'v1').map((segment) => segment.replace(/^\{(.+)\}$/, 'by-$1'));

const pascalCase = (words: string[]) => words.flatMap((word) => word.split(/[^A-Za-z0-9]+/)).map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');

const PROSE = new Set(['description', 'summary', 'example', 'examples', 'x-error']);

/**
 * The value without documentation keywords (a property named like one, under `properties`, stays)
 * and without `additionalProperties: false`: openapi-typescript writes the same closed type without
 * it, and Elysia writes it into a schema object when it first builds a validator from it, so whether
 * a shape carries it depends on what the process did before (two shapes alike would not compare alike).
 */
function withoutProse(value: unknown, underProperties = false): unknown {
  if (Array.isArray(value)) return value.map((item) => withoutProse(item));
  if (value === null || typeof value !== 'object') return value;
  const kept = Object.entries(value).filter(([key, item]) => underProperties || !(PROSE.has(key) || (key === 'additionalProperties' && item === false)));
  return Object.fromEntries(kept.map(([key, item]) => [key, withoutProse(item, !underProperties && key === 'properties')]));
}

/** An object schema met among the answers, with where it stands: its parent, its key there and its path from `schemas`. */
type Place = { schema: Schema; parent: Record<string, unknown>; key: string; at: string[] };

/**
 * The answers with every object schema that stands in more than one place (the same order in three
 * answers, the same license in four) written once as a schema of its own and referred to by `$ref`,
 * so that the generated module says each shape once. The innermost repeated shapes go first: once
 * they are references, the shapes around them become alike and go in the next round.
 */
function withSharedShapes(schemas: Record<string, Schema>): Record<string, Schema> {
  for (let repeated = repeatedShapes(schemas); repeated.length > 0; repeated = repeatedShapes(schemas)) {
    for (const places of repeated) {
      const name = shapeName(places[0]!, schemas);
      schemas[name] = places[0]!.schema;
      for (const { parent, key } of places) if (parent !== schemas || key !== name) parent[key] = { $ref: `#/components/schemas/${name}` };
    }
  }
  return schemas;
}

/** The object schemas standing in more than one place that hold no other such schema, each with its places in document order. */
function repeatedShapes(schemas: Record<string, Schema>): Place[][] {
  const byShape = new Map<string, Place[]>();
  for (const place of objectSchemas(schemas, [])) {
    const shape = JSON.stringify(sortedKeys(place.schema));
    byShape.set(shape, [...(byShape.get(shape) ?? []), place]);
  }
  const repeated = [...byShape.values()].filter((places) => places.length > 1);
  const holdsAnother = (outer: Place) => repeated.some((places) => places[0]!.schema !== outer.schema && places.some(({ at }) => isInside(at, outer.at)));
  return repeated.filter((places) => !holdsAnother(places[0]!));
}

/** Every object schema (`type: 'object'` with `properties`) below `value`, parents before children. */
function objectSchemas(value: object, at: string[]): Place[] {
  return Object.entries(value).flatMap(([key, item]) => {
    if (item === null || typeof item !== 'object') return [];
    const here = [...at, key];
    const inside = objectSchemas(item, here);
    return 'properties' in item && item.type === 'object' ? [{ schema: item, parent: value as Schema, key, at: here }, ...inside] : inside;
  });
}

const isInside = (at: string[], outer: string[]) => at.length > outer.length && outer.every((key, index) => at[index] === key);

type ObjectSchema = { type: 'object'; required?: string[]; properties: Record<string, unknown> };

/**
 * The schemas with every shape that has all the fields of a named one and more (a delivery and its
 * attempts, an endpoint and its secret) written as that one and the rest (`allOf`), so that the
 * fields they share are said once, as the routes' schemas say them.
 */
function withExtensions(schemas: Record<string, Schema>): Record<string, Schema> {
  const bases = Object.entries(schemas).filter((entry): entry is [string, ObjectSchema] => isPlainObject(entry[1]));
  const extended = objectSchemas(schemas, []).flatMap(({ schema, parent, key }) => {
    if (!isPlainObject(schema)) return [];
    const fits = bases.filter(([, base]) => base !== schema && extends_(schema, base));
    const [name, base] = fits.sort(([, a], [, b]) => Object.keys(b.properties).length - Object.keys(a.properties).length)[0] ?? [];
    return name && base ? [{ parent, key, schema: { allOf: [{ $ref: `#/components/schemas/${name}` }, rest(schema, base)] } }] : [];
  });
  for (const { parent, key, schema } of extended) parent[key] = schema;
  return schemas;
}

/** A schema with nothing but its fields, which another can be written as the sum of. */
const isPlainObject = (schema: Schema): schema is ObjectSchema => Object.keys(schema).every((keyword) => ['type', 'required', 'properties'].includes(keyword)) && schema.type === 'object';

/**
 * Whether `shape` has every field of `base`, alike and as required, and more; a base has three
 * fields at least, so that no two shapes are tied by an id and a date alone.
 */
function extends_(shape: ObjectSchema, base: ObjectSchema): boolean {
  const fields = Object.keys(base.properties);
  const required = (schema: ObjectSchema, field: string) => schema.required?.includes(field) ?? false;
  return fields.length >= 3 && Object.keys(shape.properties).length > fields.length
    && fields.every((field) => field in shape.properties && required(shape, field) === required(base, field) && JSON.stringify(sortedKeys(shape.properties[field])) === JSON.stringify(sortedKeys(base.properties[field])));
}

/** The fields `shape` has over `base`. */
function rest(shape: ObjectSchema, base: ObjectSchema): ObjectSchema {
  const properties = Object.fromEntries(Object.entries(shape.properties).filter(([field]) => !(field in base.properties)));
  return { type: 'object', required: (shape.required ?? []).filter((field) => field in properties), properties };
}

/** The value with its keys in order, so that two schemas written in another order compare alike. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)).map(([key, item]) => [key, sortedKeys(item)]));
}

/**
 * A shared shape's name: its `title` where it has one, else where it first stands: the answer's name
 * and the way down to it, e.g. `DevelopersOrdersGet200DataItem` for an item of GET /v1/developers/orders's
 * `data` (an answer that is the shape keeps its own name).
 */
function shapeName(first: Place, schemas: Record<string, Schema>): string {
  const [answer = '', ...below] = first.at;
  const title = first.schema.title;
  const name = typeof title === 'string' ? title : pascalCase([answer, ...below.flatMap((key, index) => (below[index - 1] === 'properties' ? [key] : key === 'items' ? ['item'] : []))]);
  if (name in schemas && name !== answer) throw new Error(`two shapes of the console's answers would be named ${name}`);
  return name;
}

/** The generated module's text. */
export async function consoleTypesModule(): Promise<string> {
  const { default: openapiTS, astToString } = await loadOpenapiTypescript();
  const types = astToString(await openapiTS(consolePart(await servedDocument()) as never, { alphabetize: true }));
  return `// Generated by scripts/console-types.ts from GET /v1/openapi.json: do not edit; run \`bun run build:console-types\`.\n${types}`;
}

if (import.meta.main) {
  await Bun.write(CONSOLE_TYPES, await consoleTypesModule());
  console.log(`wrote ${CONSOLE_TYPES}`);
}
