import { describe, expect, test } from 'bun:test';
import type { ConsoleSession, Passkey, WebAuthnChallenge } from '../../src/domain/console-session.ts';
import { givenDeveloper, T0, unique } from './builders.ts';
import { freshStorePerTest, type StoreFactory } from './stores.ts';

const HOUR = 3_600_000;

export function aConsoleSession(developerId: string, overrides: Partial<ConsoleSession> = {}): ConsoleSession {
  return {
    id: `csn_${unique()}`, developerId, tokenHash: `hash_${unique()}`, createdAt: T0, lastUsedAt: T0, expiresAt: T0 + 8 * HOUR,
    revokedAt: null, userAgent: 'Firefox', clientAddress: '203.0.113.1', how: 'email', ...overrides,
  };
}

export function aPasskey(developerId: string, overrides: Partial<Passkey> = {}): Passkey {
  return {
    id: `psk_${unique()}`, developerId, credentialId: unique(), publicKey: 'pQECAyYgASFYIA', counter: 0, transports: ['internal', 'hybrid'],
    name: 'Laptop', createdAt: T0, lastUsedAt: null, revokedAt: null, ...overrides,
  };
}

export function aChallenge(overrides: Partial<WebAuthnChallenge> = {}): WebAuthnChallenge {
  return { id: `wch_${unique()}`, purpose: 'authentication', developerId: null, challenge: unique(), createdAt: T0, expiresAt: T0 + 300_000, usedAt: null, ...overrides };
}

export function consoleRepositoriesContract(factory: StoreFactory): void {
  describe(`ConsoleSessionRepository and PasskeyRepository on ${factory.name}`, () => {
    const opened = freshStorePerTest(factory);

    test('a session reads back by its digest; touch writes only when the last use is older than asked', async () => {
      const { store } = opened();
      const { developer } = await givenDeveloper(store);
      const session = aConsoleSession(developer.id);
      await store.consoleSessions.create(session);

      await store.consoleSessions.touch(session.id, T0 + 30_000, T0 + 30_000 - 60_000);
      const untouched = await store.consoleSessions.findByHash(session.tokenHash);
      await store.consoleSessions.touch(session.id, T0 + 90_000, T0 + 90_000 - 60_000);

      expect(untouched).toEqual(session);
      expect(await store.consoleSessions.findByHash(session.tokenHash)).toEqual({ ...session, lastUsedAt: T0 + 90_000 });
      expect(await store.consoleSessions.findByHash('hash_unknown')).toBeNull();
    });

    test('listLive: the developer’s live sessions only, newest first; revoke only one’s own; revokeAll keeps first times', async () => {
      const { store } = opened();
      const { developer } = await givenDeveloper(store);
      const { developer: other } = await givenDeveloper(store);
      const older = aConsoleSession(developer.id);
      const newer = aConsoleSession(developer.id, { createdAt: T0 + 1, lastUsedAt: T0 + 1 });
      const idle = aConsoleSession(developer.id, { lastUsedAt: T0 - 2 * HOUR });
      const theirs = aConsoleSession(other.id);
      for (const s of [older, newer, idle, theirs]) await store.consoleSessions.create(s);

      expect((await store.consoleSessions.listLive(developer.id, T0 + 10, HOUR)).map((s) => s.id)).toEqual([newer.id, older.id]);
      expect(await store.consoleSessions.revoke(developer.id, theirs.id, T0 + 5)).toBe(false);
      expect(await store.consoleSessions.revoke(developer.id, older.id, T0 + 5)).toBe(true);
      await store.consoleSessions.revokeAll(developer.id, T0 + 9);

      expect((await store.consoleSessions.findByHash(older.tokenHash))!.revokedAt).toBe(T0 + 5);
      expect((await store.consoleSessions.findByHash(newer.tokenHash))!.revokedAt).toBe(T0 + 9);
      expect((await store.consoleSessions.findByHash(theirs.tokenHash))!.revokedAt).toBeNull();
    });

    test('a passkey reads back by credential id, field for field; listActive leaves revoked ones and others’ out', async () => {
      const { store } = opened();
      const { developer } = await givenDeveloper(store);
      const { developer: other } = await givenDeveloper(store);
      const kept = aPasskey(developer.id);
      const revoked = aPasskey(developer.id, { createdAt: T0 + 1 });
      await store.passkeys.add(kept, 20);
      await store.passkeys.add(revoked, 20);
      await store.passkeys.add(aPasskey(other.id), 20);

      expect(await store.passkeys.revoke(other.id, revoked.id, T0 + 2)).toBe(false);
      expect(await store.passkeys.revoke(developer.id, revoked.id, T0 + 2)).toBe(true);

      expect(await store.passkeys.findByCredentialId(kept.credentialId)).toEqual(kept);
      expect((await store.passkeys.listActive(developer.id)).map((p) => p.id)).toEqual([kept.id]);
      await expect(store.passkeys.add(aPasskey(developer.id, { credentialId: kept.credentialId }), 20)).rejects.toThrow();
    });

    test('add holds the cap however many registrations race: a revoked passkey frees its place', async () => {
      const { store } = opened();
      const { developer } = await givenDeveloper(store);
      const added = await Promise.all(Array.from({ length: 12 }, (_, i) => store.passkeys.add(aPasskey(developer.id, { createdAt: T0 + i }), 5)));
      expect(added.filter(Boolean)).toHaveLength(5);
      const live = await store.passkeys.listActive(developer.id);
      expect(live).toHaveLength(5);

      expect(await store.passkeys.add(aPasskey(developer.id), 5)).toBe(false);
      await store.passkeys.revoke(developer.id, live[2]!.id, T0 + 50);
      expect(await store.passkeys.add(aPasskey(developer.id), 5)).toBe(true);
      expect(await store.passkeys.add(aPasskey(developer.id), 5)).toBe(false);
      expect(await store.passkeys.listActive(developer.id)).toHaveLength(5);
    });

    test('recordUse moves the counter once from its value, never on a revoked passkey', async () => {
      const { store } = opened();
      const { developer } = await givenDeveloper(store);
      const passkey = aPasskey(developer.id, { counter: 3 });
      await store.passkeys.add(passkey, 20);

      const uses = await Promise.all(Array.from({ length: 10 }, () => store.passkeys.recordUse(passkey.id, 3, 4, T0 + 7)));
      await store.passkeys.revoke(developer.id, passkey.id, T0 + 8);

      expect(uses.filter(Boolean)).toHaveLength(1);
      expect(await store.passkeys.findByCredentialId(passkey.credentialId)).toMatchObject({ counter: 4, lastUsedAt: T0 + 7 });
      expect(await store.passkeys.recordUse(passkey.id, 4, 5, T0 + 9)).toBe(false);
    });

    test('takeChallenge: once, while live, by id or by value and developer, for its purpose only', async () => {
      const { store } = opened();
      const { developer } = await givenDeveloper(store);
      const signIn = aChallenge();
      const registration = aChallenge({ purpose: 'registration', developerId: developer.id });
      const expired = aChallenge();
      for (const c of [signIn, registration, expired]) await store.passkeys.createChallenge(c);

      const takes = await Promise.all(Array.from({ length: 10 }, () => store.passkeys.takeChallenge('authentication', { id: signIn.id }, T0 + 1)));

      expect(takes.filter((t) => t !== null)).toEqual([{ ...signIn, usedAt: T0 + 1 }]);
      expect(await store.passkeys.takeChallenge('authentication', { id: registration.id }, T0 + 1)).toBeNull();
      expect(await store.passkeys.takeChallenge('registration', { challenge: registration.challenge, developerId: 'dev_other' }, T0 + 1)).toBeNull();
      expect(await store.passkeys.takeChallenge('registration', { challenge: registration.challenge, developerId: developer.id }, T0 + 1)).toMatchObject({ id: registration.id });
      expect(await store.passkeys.takeChallenge('authentication', { id: expired.id }, expired.expiresAt)).toBeNull();
    });
  });
}
