import { describe, expect, test } from 'bun:test';
import { randomBytes } from 'node:crypto';
import { SealedAnswers } from '../../src/adapters/crypto/sealed-answers.ts';

const masterKey = () => new Uint8Array(randomBytes(32));
const ANSWER = JSON.stringify({ id: 'key_1', scope: 'secret', key: 'sk_live_secretvalue0123456789' });

describe('kept Idempotency-Key answers, sealed', () => {
  test('a sealed answer shows nothing of it, differs each time (fresh IV), and unseals to it', () => {
    const answers = new SealedAnswers(masterKey());
    const [a, b] = [answers.seal(ANSWER), answers.seal(ANSWER)];

    expect(a).not.toContain('sk_live');
    expect(a).not.toBe(b);
    expect([answers.unseal(a), answers.unseal(b)]).toEqual([ANSWER, ANSWER]);
  });

  test('another master key cannot open it, nor can a changed one be opened', () => {
    const sealed = new SealedAnswers(masterKey()).seal(ANSWER);
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith('AA') ? 'BB' : 'AA'}`;

    expect(() => new SealedAnswers(masterKey()).unseal(sealed)).toThrow();
    expect(() => new SealedAnswers(masterKey()).unseal(tampered)).toThrow();
  });

  test('an answer kept before answers were sealed (plain JSON) is read as it is', () => {
    expect(new SealedAnswers(masterKey()).unseal(ANSWER)).toBe(ANSWER);
  });
});
