import { describe, expect, test } from 'bun:test';
import { ConfigError, loadConfig } from '../../src/config.ts';

describe('MAIL_LEASE_SECONDS', () => {
  test('unset: a claimed mail is its sender’s for 5 minutes', () => {
    expect(loadConfig({}).mailLeaseMs).toBe(300_000);
  });

  test('whole seconds set it', () => {
    expect(loadConfig({ MAIL_LEASE_SECONDS: '2' }).mailLeaseMs).toBe(2_000);
  });

  test.each(['0', '-1', '1.5', 'soon'])('MAIL_LEASE_SECONDS=%s is refused, naming the variable', (value) => {
    expect(() => loadConfig({ MAIL_LEASE_SECONDS: value })).toThrow(ConfigError);
    expect(() => loadConfig({ MAIL_LEASE_SECONDS: value })).toThrow(/^MAIL_LEASE_SECONDS /);
  });
});

describe('MAIL_RELAY_PROBE_SECONDS', () => {
  test('unset: while the relay is down, one mail every 15 s', () => {
    expect(loadConfig({}).mailRelayProbeMs).toBe(15_000);
  });

  test('whole seconds set it', () => {
    expect(loadConfig({ MAIL_RELAY_PROBE_SECONDS: '30' }).mailRelayProbeMs).toBe(30_000);
  });

  test.each(['0', '1.5', 'often'])('MAIL_RELAY_PROBE_SECONDS=%s is refused, naming the variable', (value) => {
    expect(() => loadConfig({ MAIL_RELAY_PROBE_SECONDS: value })).toThrow(/^MAIL_RELAY_PROBE_SECONDS /);
  });
});
