import { describe, expect, test } from 'bun:test';
import { addressKey, carrySocketAddress, clientAddress, recordSocketAddress, UNKNOWN_ADDRESS } from '../../../src/adapters/http/client-address.ts';
import { ConfigError, loadConfig } from '../../../src/config.ts';

const request = (headers: Record<string, string> = {}, socket?: string) => {
  const r = new Request('http://localhost/v1/health', { headers });
  recordSocketAddress(r, socket);
  return r;
};

describe('the client address', () => {
  test('without TRUSTED_PROXY_HEADER it is the socket’s, whatever X-Forwarded-For or X-Real-IP say', () => {
    const forged = request({ 'x-forwarded-for': '1.2.3.4', 'x-real-ip': '5.6.7.8' }, '192.0.2.10');

    expect(clientAddress(forged, null)).toBe('192.0.2.10');
  });

  test('with x-forwarded-for trusted, the right-most entry: the one the proxy appended', () => {
    const proxied = request({ 'x-forwarded-for': '1.2.3.4, 10.0.0.1,  203.0.113.9 ' }, '10.0.0.2');

    expect(clientAddress(proxied, 'x-forwarded-for')).toBe('203.0.113.9');
  });

  test('with x-real-ip trusted, its single address', () => {
    expect(clientAddress(request({ 'x-real-ip': '203.0.113.9' }, '10.0.0.2'), 'x-real-ip')).toBe('203.0.113.9');
  });

  test('a trusted header that is missing or holds no IP address falls back to the socket’s', () => {
    expect(clientAddress(request({}, '10.0.0.2'), 'x-real-ip')).toBe('10.0.0.2');
    expect(clientAddress(request({ 'x-real-ip': 'evil' }, '10.0.0.2'), 'x-real-ip')).toBe('10.0.0.2');
    expect(clientAddress(request({ 'x-forwarded-for': '203.0.113.9, ' }, '10.0.0.2'), 'x-forwarded-for')).toBe('10.0.0.2');
  });

  test('a port after the address is dropped', () => {
    expect(clientAddress(request({ 'x-real-ip': '203.0.113.9:5555' }), 'x-real-ip')).toBe('203.0.113.9');
    expect(clientAddress(request({ 'x-real-ip': '[2001:db8::1]:443' }), 'x-real-ip')).toBe('2001:db8:0:0::/64');
  });

  test('no socket (an in-process request) and no trusted header: one shared "unknown" address', () => {
    expect(clientAddress(request({ 'x-forwarded-for': '1.2.3.4' }), null)).toBe(UNKNOWN_ADDRESS);
  });

  test('IPv6 addresses count by their /64; IPv4 mapped into IPv6 counts as IPv4', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002::9')).toBe('2001:db8:1:2::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(addressKey('192.0.2.1')).toBe('192.0.2.1');
  });
});

describe('configuration of the limits and the proxy header', () => {
  test('defaults: 600 per license, 120 junk validations, 10 sign-ups, 60 login inits, 60 checkouts per address, no trusted header, a sweep every 10 minutes', () => {
    const config = loadConfig({});

    expect(config.validateRateLimitPerMinute).toBe(600);
    expect(config.addressLimits).toEqual({ invalidValidationsPerMinute: 120, signupsPerHour: 10, loginInitsPerHour: 60, checkoutInitsPerMinute: 60, trialsPerHour: 20 });
    expect(config.trustedProxyHeader).toBeNull();
    expect(config.retentionSweepMinutes).toBe(10);
  });

  test('each limit is set by its variable, 0 turns it off', () => {
    const config = loadConfig({
      VALIDATE_INVALID_RATE_LIMIT_PER_MINUTE: '0',
      SIGNUP_RATE_LIMIT_PER_HOUR: '3',
      LOGIN_RATE_LIMIT_PER_HOUR: '4',
      CHECKOUT_RATE_LIMIT_PER_MINUTE: '5',
      TRIAL_RATE_LIMIT_PER_HOUR: '6',
      RETENTION_SWEEP_MINUTES: '0',
    });

    expect(config.addressLimits).toEqual({ invalidValidationsPerMinute: 0, signupsPerHour: 3, loginInitsPerHour: 4, checkoutInitsPerMinute: 5, trialsPerHour: 6 });
    expect(config.retentionSweepMinutes).toBe(0);
  });

  test.each(['VALIDATE_INVALID_RATE_LIMIT_PER_MINUTE', 'SIGNUP_RATE_LIMIT_PER_HOUR', 'LOGIN_RATE_LIMIT_PER_HOUR', 'CHECKOUT_RATE_LIMIT_PER_MINUTE', 'RETENTION_SWEEP_MINUTES'])(
    '%s=-1 is refused, naming the variable',
    (name) => {
      expect(() => loadConfig({ [name]: '-1' })).toThrow(ConfigError);
      expect(() => loadConfig({ [name]: '-1' })).toThrow(new RegExp(`^${name} `));
    },
  );

  test.each([
    ['X-Forwarded-For', 'x-forwarded-for'],
    ['x-real-ip', 'x-real-ip'],
    [' CF-Connecting-IP ', 'cf-connecting-ip'],
  ])('TRUSTED_PROXY_HEADER=%s is taken as %s', (value, name) => {
    expect(loadConfig({ TRUSTED_PROXY_HEADER: value }).trustedProxyHeader).toBe(name);
  });

  test.each(['x forwarded for', 'x-forwarded-for:', 'X-Forwarded-For, X-Real-IP', '-x'])('TRUSTED_PROXY_HEADER=%s is refused, naming the variable', (value) => {
    expect(() => loadConfig({ TRUSTED_PROXY_HEADER: value })).toThrow(/^TRUSTED_PROXY_HEADER must be a header name/);
  });
});

describe('a copy of the request', () => {
  test('keeps the address of the original when carried over, and is "unknown" otherwise', () => {
    const original = request({}, '192.0.2.10');

    const carried = carrySocketAddress(original, new Request('http://localhost/v1/health', original));
    const bare = new Request('http://localhost/v1/health', original);

    expect(clientAddress(carried, null)).toBe('192.0.2.10');
    expect(clientAddress(bare, null)).toBe(UNKNOWN_ADDRESS);
  });
});
