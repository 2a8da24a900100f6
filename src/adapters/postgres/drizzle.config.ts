import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/adapters/store/tables.ts',
  out: './src/adapters/postgres/migrations',
});
