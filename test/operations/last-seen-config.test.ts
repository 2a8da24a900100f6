import { describe, expect, test } from 'bun:test';
import { ConfigError, LAST_SEEN_FLUSH_MS, loadConfig } from '../../src/config.ts';

describe('LAST_SEEN_FLUSH_MS', () => {
  test('unset: a second; 100 ms to a minute sets it', () => {
    expect(loadConfig({}).lastSeenFlushMs).toBe(LAST_SEEN_FLUSH_MS);
    expect(LAST_SEEN_FLUSH_MS).toBe(1_000);
    expect(loadConfig({ LAST_SEEN_FLUSH_MS: '100' }).lastSeenFlushMs).toBe(100);
    expect(loadConfig({ LAST_SEEN_FLUSH_MS: '60000' }).lastSeenFlushMs).toBe(60_000);
  });

  test.each(['0', '99', '60001', '-1', '1.5', 'soon', 'a\u0000'])('LAST_SEEN_FLUSH_MS=%p is refused, naming the variable', (value) => {
    expect(() => loadConfig({ LAST_SEEN_FLUSH_MS: value })).toThrow(ConfigError);
    expect(() => loadConfig({ LAST_SEEN_FLUSH_MS: value })).toThrow(/LAST_SEEN_FLUSH_MS/);
  });
});
