import { expect, test } from 'bun:test';
import { kindOf } from '../../src/adapters/rate-limit/counting-rate-limiter.ts';

test('a refusal is counted by the kind of limit, never by who or what it counted', () => {
  expect(kindOf('validate:license:lic_123')).toBe('validate:license');
  expect(kindOf('validate:address:203.0.113.9')).toBe('validate:address');
  expect(kindOf('signup:address:2001:db8::1')).toBe('signup:address');
  expect(kindOf('sms:phone:decoy:abc:15m')).toBe('sms:phone');
  expect(kindOf('login:0123456789abcdef0123456789abcdef:day')).toBe('login');
  expect(kindOf('trial-mail:abcdef:10.0.0.1:60m')).toBe('trial-mail');
  expect(kindOf('Weird Key')).toBe('other');
});
