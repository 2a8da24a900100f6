/**
 * The PostgreSQL every development and CI machine runs (trust auth); TEST_DATABASE_URL overrides it.
 * A module of its own: the benchmarks read it through server-process.ts outside `bun test`, where
 * the schema pool's end-of-run hook cannot be registered.
 */
export const TEST_POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
