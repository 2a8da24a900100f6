import { expect, test } from 'bun:test';
import * as old from '../../src/adapters/sqlite/schema-old.ts';
import * as lite from '../../src/adapters/sqlite/schema.ts';
import * as pgOld from '../../src/adapters/postgres/schema-old.ts';
import * as pg from '../../src/adapters/postgres/schema.ts';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Old = typeof old;
type Lite = typeof lite;
type Same = { [K in keyof Old]: K extends keyof Lite ? [Equal<Old[K]['$inferSelect'], Lite[K]['$inferSelect']>, Equal<Old[K]['$inferInsert'], Lite[K]['$inferInsert']>] : 'missing' };
type Mismatch = { [K in keyof Same as Same[K] extends [true, true] ? never : K]: Same[K] };
const onlyOutgoingEvents: [Equal<keyof Mismatch, 'outgoingEvents'>, Equal<Mismatch['outgoingEvents'], [false, false]>] = [true, true];
// The one deliberate change: outgoing_events.data is JSON mode now (the same text stored), the rest equal.
const eventsBarData: [true, true] = [] as unknown as [
  Equal<Omit<Old['outgoingEvents']['$inferSelect'], 'data'>, Omit<Lite['outgoingEvents']['$inferSelect'], 'data'>>,
  Equal<Omit<Old['outgoingEvents']['$inferInsert'], 'data'>, Omit<Lite['outgoingEvents']['$inferInsert'], 'data'>>,
];
const dataTypes: [Equal<Lite['outgoingEvents']['$inferSelect']['data'], unknown>, Equal<Old['outgoingEvents']['$inferSelect']['data'], string>] = [true, true];
type PgOld = typeof pgOld;
type Pg = typeof pg;
type PgSame = { [K in keyof PgOld]: K extends keyof Pg ? [Equal<PgOld[K]['$inferSelect'], Pg[K]['$inferSelect']>, Equal<PgOld[K]['$inferInsert'], Pg[K]['$inferInsert']>] : 'missing' };
type PgMismatch = { [K in keyof PgSame as PgSame[K] extends [true, true] ? never : K]: PgSame[K] };
const pgUnchanged: Equal<PgMismatch, {}> = true;
const sameNames: [Equal<keyof Pg, keyof PgOld>, Equal<keyof Lite, keyof Old>] = [true, true];
test('derived SQLite tables infer what the old declarations did', () => expect([pgUnchanged, sameNames, onlyOutgoingEvents, eventsBarData, dataTypes]).toBeDefined());
