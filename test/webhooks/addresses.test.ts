import { describe, expect, test } from 'bun:test';
import { pinnedTarget } from '../../src/adapters/webhooks/http-webhook-sender.ts';
import { isPrivateAddress, resolvedAddressProblem, webhookUrlProblem } from '../../src/domain/webhook-endpoint.ts';

/** Every form an internal address takes, as a resolver may answer it or a URL may write it. */
const REFUSED: [string, string][] = [
  ['0.0.0.0', 'this network'],
  ['10.1.2.3', 'RFC 1918'],
  ['100.64.0.1', 'CGNAT'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['169.254.169.254', 'link-local, cloud metadata'],
  ['172.16.0.1', 'RFC 1918'],
  ['172.31.255.255', 'RFC 1918'],
  ['192.0.0.1', 'IETF protocol assignments 192.0.0.0/24'],
  ['192.0.0.170', 'NAT64 discovery, in 192.0.0.0/24'],
  ['192.0.2.1', 'documentation'],
  ['192.88.99.1', '6to4 relay anycast'],
  ['192.168.1.1', 'RFC 1918'],
  ['198.18.0.1', 'benchmarking 198.18.0.0/15'],
  ['198.19.255.255', 'benchmarking 198.18.0.0/15'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.9', 'documentation'],
  ['224.0.0.1', 'multicast'],
  ['240.0.0.1', 'reserved 240.0.0.0/4'],
  ['250.1.2.3', 'reserved 240.0.0.0/4'],
  ['255.255.255.255', 'broadcast'],
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback, long form'],
  ['::ffff:127.0.0.1', 'IPv4-mapped, dotted'],
  ['::ffff:7f00:1', 'IPv4-mapped, hex'],
  ['0:0:0:0:0:ffff:7f00:0001', 'IPv4-mapped, long form'],
  ['::FFFF:A9FE:A9FE', 'IPv4-mapped metadata, upper case'],
  ['[::ffff:10.0.0.1]', 'IPv4-mapped, bracketed'],
  ['::ffff:0:127.0.0.1', 'IPv4-translated (RFC 2765)'],
  ['::ffff:0:a00:1', 'IPv4-translated, hex'],
  ['::127.0.0.1', 'IPv4-compatible (deprecated)'],
  ['::8.8.8.8', 'IPv4-compatible, even of a public address'],
  ['64:ff9b::127.0.0.1', 'NAT64 of loopback'],
  ['64:ff9b::a9fe:a9fe', 'NAT64 of the metadata address'],
  ['64:ff9b:1::1', 'local-use NAT64'],
  ['2002::1', '6to4'],
  ['2002:7f00:1::1', '6to4 of loopback'],
  ['2002:808:808::1', '6to4 of a public address: the whole prefix'],
  ['2001::1', 'Teredo'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
  ['2001:db8::1', 'documentation'],
  ['3fff::1', 'documentation'],
  ['2001:10::1', 'ORCHID'],
  ['2001:20::1', 'ORCHIDv2'],
  ['2001:2::1', 'benchmarking'],
  ['fc00::1', 'unique local'],
  ['fd12:3456::1', 'unique local'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local with a zone'],
  ['fec0::1', 'site-local (deprecated)'],
  ['ff02::1', 'multicast'],
  ['100::1', 'discard-only'],
  ['1:2:3:4:5:6:7:8:9', 'not an address, yet colons'],
];

const REACHABLE: [string, string][] = [
  ['8.8.8.8', 'public IPv4'],
  ['93.184.215.14', 'public IPv4'],
  ['172.32.0.1', 'just past 172.16.0.0/12'],
  ['192.0.1.1', 'just past 192.0.0.0/24'],
  ['198.20.0.1', 'just past 198.18.0.0/15'],
  ['223.255.255.255', 'just below multicast'],
  ['2606:4700:4700::1111', 'public IPv6'],
  ['2a00:1450:4001:80b::200e', 'public IPv6'],
  ['::ffff:8.8.8.8', 'IPv4-mapped public address'],
  ['64:ff9b::808:808', 'NAT64 of a public address'],
  ['hooks.example.com', 'a name (resolved elsewhere)'],
];

describe('the webhook block list', () => {
  test.each(REFUSED)('%s is refused (%s)', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  test.each(REACHABLE)('%s may be reached (%s)', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  test('a URL naming any refused address is refused, however the URL writes it', () => {
    const urls = [
      'https://[::ffff:127.0.0.1]/x', 'https://[::ffff:7f00:1]/x', 'https://[::ffff:0:127.0.0.1]/x', 'https://[::127.0.0.1]/x',
      'https://[64:ff9b::a9fe:a9fe]/x', 'https://[2002:a9fe:a9fe::1]/x', 'https://192.0.0.8/x', 'https://198.18.1.1/x', 'https://240.0.0.1/x',
      'https://255.255.255.255/x', 'https://0x7f.1/x', 'https://0177.0.0.1/x', 'https://2130706433/x', 'https://[fe80::1]/x',
    ];
    for (const url of urls) expect({ url, problem: webhookUrlProblem(url, false) }).toEqual({ url, problem: expect.stringContaining('private') });
  });

  test('a name is refused when any one of its addresses is, or when it has none, in words that do not say which', () => {
    const refused = 'hooks.example.com does not resolve to public addresses only (it does not resolve, or an address of it is private, loopback or otherwise internal)';
    expect(resolvedAddressProblem('hooks.example.com', ['93.184.215.14', '::ffff:10.0.0.1'])).toBe(refused);
    expect(resolvedAddressProblem('hooks.example.com', [])).toBe(refused);
    expect(resolvedAddressProblem('hooks.example.com', ['93.184.215.14', '2606:4700:4700::1111'])).toBeNull();
  });
});

describe('the pinned target: the checked address, with the name for HTTP and TLS', () => {
  test('https to a name: connect to the address, Host and TLS server name stay the name', () => {
    expect(pinnedTarget(new URL('https://Hooks.Example.com/in?x=1'), '93.184.215.14')).toEqual({
      url: 'https://93.184.215.14/in?x=1', host: 'hooks.example.com', serverName: 'hooks.example.com',
    });
  });

  test('a port is kept in the URL and the Host header; an IPv6 address is bracketed', () => {
    expect(pinnedTarget(new URL('https://hooks.example.com:8443/in'), '2606:4700:4700::1111')).toEqual({
      url: 'https://[2606:4700:4700::1111]:8443/in', host: 'hooks.example.com:8443', serverName: 'hooks.example.com',
    });
  });

  test('plain http has no server name; nor has a literal address', () => {
    expect(pinnedTarget(new URL('http://hooks.test:8080/in'), '127.0.0.1')).toEqual({ url: 'http://127.0.0.1:8080/in', host: 'hooks.test:8080', serverName: null });
    expect(pinnedTarget(new URL('https://93.184.215.14/in'), '93.184.215.14')).toEqual({ url: 'https://93.184.215.14/in', host: '93.184.215.14', serverName: null });
  });

  test('a name with a final dot: the server name has none', () => {
    expect(pinnedTarget(new URL('https://hooks.example.com./in'), '93.184.215.14').serverName).toBe('hooks.example.com');
  });
});
