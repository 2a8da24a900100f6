import { describe, expect, test } from 'bun:test';
import { generateKeyPairSync, sign } from 'node:crypto';
import { MemoryStore } from '../../src/client/cache.ts';
import { KeyTrust } from '../../src/client/trust.ts';
import { utf8 } from '../../src/domain/base64url.ts';
import { assembleStatement, endorsementSigningInput, retirementSigningInput } from '../../src/domain/key-statements.ts';
import { T0 } from './support.ts';

// docs/key-rotation.md: which keys the client library believes, rule by rule, without a server.
function aKey(kid: string) {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const x = publicKey.export({ format: 'jwk' }).x!;
  const signed = (input: string) => assembleStatement(input, new Uint8Array(sign(null, utf8.encode(input), privateKey)));
  return {
    kid,
    x,
    jwk: { kty: 'OKP', crv: 'Ed25519', x, kid, alg: 'EdDSA', use: 'sig' },
    endorse: (next: { kid: string; x: string }, iat = T0) => signed(endorsementSigningInput(kid, { sub: 'dev_1', kid: next.kid, x: next.x, notBefore: iat, iat })),
    retire: (retired: { kid: string }, compromisedAt = T0) => signed(retirementSigningInput(kid, { sub: 'dev_1', kid: retired.kid, compromisedAt, successor: kid })),
  };
}

function trustIn(...roots: ReturnType<typeof aKey>[]) {
  const store = new MemoryStore();
  const trust = new KeyTrust({ keys: roots.map((r) => r.jwk) });
  trust.attach({ store: async () => store });
  return { trust, store, again: () => {
    const next = new KeyTrust({ keys: roots.map((r) => r.jwk) });
    next.attach({ store: async () => store });
    return next;
  } };
}

describe('KeyTrust', () => {
  test('follows a chain of rotations whatever order its statements come in, and keeps them for the next run', async () => {
    const [a, b, c] = [aKey('kid_a'), aKey('kid_b'), aKey('kid_c')];
    const { trust, again } = trustIn(a);

    await trust.learn([b.endorse(c), a.endorse(b)]);

    expect(await trust.keyFor(c.kid)).toMatchObject({ compromisedAt: null });
    expect(await again().keyFor(c.kid)).not.toBeNull();
  });

  test('an edited keys.json adds no key: what it holds is checked again from the shipped keys', async () => {
    const [a, stranger, forged] = [aKey('kid_a'), aKey('kid_stranger'), aKey('kid_forged')];
    const { store, again } = trustIn(a);

    await store.write(JSON.stringify({ version: 1, statements: [stranger.endorse(forged)] }));

    expect(await again().keyFor(forged.kid)).toBeNull();
  });

  test('a retirement not signed by the successor it names changes nothing', async () => {
    const [a, b, n] = [aKey('kid_a'), aKey('kid_b'), aKey('kid_n')];
    const { trust } = trustIn(a);
    const byAnother = assembleStatement(retirementSigningInput(b.kid, { sub: 'dev_1', kid: a.kid, compromisedAt: T0, successor: n.kid }), new Uint8Array(64));

    await trust.learn([a.endorse(b), byAnother]);

    expect(await trust.keyFor(a.kid)).toMatchObject({ compromisedAt: null });
  });

  test('once a key is retired, its endorsements of any key but its successor count for nothing, whatever their date; what was learned through them is forgotten', async () => {
    const [a, n, thief] = [aKey('kid_a'), aKey('kid_n'), aKey('kid_thief')];
    const { trust, again } = trustIn(a);
    await trust.learn([a.endorse(thief, T0 - 1_000)]);
    expect(await trust.keyFor(thief.kid)).not.toBeNull();

    await trust.learn([n.retire(a, T0), a.endorse(n, T0)]);

    expect(await trust.keyFor(thief.kid)).toBeNull();
    expect(await trust.keyFor(n.kid)).toMatchObject({ compromisedAt: null });
    expect(await trust.keyFor(a.kid)).toMatchObject({ compromisedAt: T0 });
    expect(await again().keyFor(a.kid)).toMatchObject({ compromisedAt: T0 });
  });

  test('the first retirement of a key wins: a later one naming another successor is ignored', async () => {
    const [a, n, thief] = [aKey('kid_a'), aKey('kid_n'), aKey('kid_thief')];
    const { trust } = trustIn(a);
    await trust.learn([n.retire(a, T0), a.endorse(n, T0)]);

    await trust.learn([thief.retire(a, T0 - 1), a.endorse(thief, T0 - 1)]);

    expect(await trust.keyFor(thief.kid)).toBeNull();
    expect(await trust.keyFor(a.kid)).toMatchObject({ compromisedAt: T0 });
  });
});
