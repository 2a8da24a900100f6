// Every migration drizzle-kit generated, embedded: add the new file here after `bun run db:generate`
// (a test fails when a .sql file of this folder is missing from this list).
import m0000 from './0000_init.sql' with { type: 'text' };
import m0001 from './0001_checkout.sql' with { type: 'text' };
import m0002 from './0002_terminal.sql' with { type: 'text' };
import m0003 from './0003_security.sql' with { type: 'text' };
import m0004 from './0004_activations.sql' with { type: 'text' };
import m0005 from './0005_business.sql' with { type: 'text' };
import m0006 from './0006_list_indexes.sql' with { type: 'text' };
import m0007 from './0007_events_from_app.sql' with { type: 'text' };
import journal from './meta/_journal.json' with { type: 'json' };
import { embeddedMigrations } from '../../migrations/embedded-migrations.ts';

export const SQLITE_MIGRATIONS = embeddedMigrations(journal, {
  '0000_init': m0000,
  '0001_checkout': m0001,
  '0002_terminal': m0002,
  '0003_security': m0003,
  '0004_activations': m0004,
  '0005_business': m0005,
  '0006_list_indexes': m0006,
  '0007_events_from_app': m0007,
});
