/** The PostgreSQL every development and CI machine runs (trust auth); TEST_DATABASE_URL overrides it. */
export const TEST_POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
