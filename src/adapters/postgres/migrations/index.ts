// Every migration drizzle-kit generated, embedded: add the new file here after `bun run db:generate:pg`
// (a test fails when a .sql file of this folder is missing from this list).
import m0000 from './0000_init.sql' with { type: 'text' };
import m0001 from './0001_security.sql' with { type: 'text' };
import m0002 from './0002_activations.sql' with { type: 'text' };
import m0003 from './0003_business.sql' with { type: 'text' };
import m0004 from './0004_list_indexes.sql' with { type: 'text' };
import m0005 from './0005_events_from_app.sql' with { type: 'text' };
import journal from './meta/_journal.json' with { type: 'json' };
import { embeddedMigrations } from '../../migrations/embedded-migrations.ts';

export const POSTGRES_MIGRATION_LIST = embeddedMigrations(journal, {
  '0000_init': m0000,
  '0001_security': m0001,
  '0002_activations': m0002,
  '0003_business': m0003,
  '0004_list_indexes': m0004,
  '0005_events_from_app': m0005,
});
