import { describe, expect, test } from 'bun:test';
import { deactivationsProblem, hasFreeSlot, maxMachinesProblem, nextDeactivationAt } from '../../src/domain/activation.ts';
import { decideSeat } from '../../src/domain/machine-binding.ts';

const NOW = Date.UTC(2026, 0, 31);
const DAY = 86_400_000;
const WINDOW = 30 * DAY;

describe('decideSeat: N machines', () => {
  test('a known machine matches, even when the license is full or over its limit', () => {
    expect(decideSeat(['a', 'b', 'c'], 1, 'b')).toEqual({ kind: 'matches' });
  });
  test('a new machine takes a free slot; with none free it is a mismatch', () => {
    expect(decideSeat(['a'], 2, 'b')).toEqual({ kind: 'bind', fingerprint: 'b' });
    expect(decideSeat(['a', 'b'], 2, 'c')).toEqual({ kind: 'mismatch' });
  });
  test('unlimited (null) always has room', () => {
    expect(decideSeat(Array.from({ length: 5000 }, (_, i) => `m${i}`), null, 'new')).toEqual({ kind: 'bind', fingerprint: 'new' });
    expect(hasFreeSlot(10_000, null)).toBe(true);
  });
  test('a limit lowered below the count admits no one', () => {
    expect(hasFreeSlot(3, 1)).toBe(false);
    expect(hasFreeSlot(1, 1)).toBe(false);
    expect(hasFreeSlot(0, 1)).toBe(true);
  });
});

describe('nextDeactivationAt: K per rolling 30 days', () => {
  test('fewer than K in the window: allowed now', () => {
    expect(nextDeactivationAt([NOW - DAY, NOW - 2 * DAY], 3, NOW)).toBeNull();
  });
  test('K in the window: allowed when the oldest of them is 30 days old', () => {
    expect(nextDeactivationAt([NOW - 10 * DAY, NOW - 2 * DAY, NOW - DAY], 3, NOW)).toBe(NOW - 10 * DAY + WINDOW);
  });
  test('more than K (a lowered quota): allowed when enough have left for the count to drop below K', () => {
    const past = [NOW - 20 * DAY, NOW - 15 * DAY, NOW - 10 * DAY, NOW - 5 * DAY];
    expect(nextDeactivationAt(past, 2, NOW)).toBe(NOW - 10 * DAY + WINDOW);
  });
  test('one exactly 30 days old no longer counts', () => {
    expect(nextDeactivationAt([NOW - WINDOW, NOW - DAY, NOW - DAY], 3, NOW)).toBeNull();
    expect(nextDeactivationAt([NOW - WINDOW + 1, NOW - DAY, NOW - DAY], 3, NOW)).toBe(NOW + 1);
  });
  test('a quota of 0 is never met', () => {
    expect(nextDeactivationAt([], 0, NOW)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('bounds', () => {
  test('maxMachines: 1 to 1000 whole, or null', () => {
    for (const ok of [1, 1000, null]) expect(maxMachinesProblem(ok)).toBeNull();
    for (const bad of [0, 1001, 1.5, -1]) expect(maxMachinesProblem(bad)).toContain('maxMachines');
  });
  test('deactivationsPer30Days: 0 to 1000 whole', () => {
    for (const ok of [0, 3, 1000]) expect(deactivationsProblem(ok)).toBeNull();
    for (const bad of [-1, 1001, 2.5]) expect(deactivationsProblem(bad)).toContain('deactivationsPer30Days');
  });
});
