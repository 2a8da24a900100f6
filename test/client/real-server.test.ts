import { beforeAll, describe, expect, test } from 'bun:test';
import { machineFingerprint } from '../../src/client/index.ts';
import { SLOW, useChromium } from '../browser/browser.ts';
import { useSandboxService } from '../browser/service.ts';
import { appClient, buyInBrowser, confirmPhone, connectedSeller, latestCode, mailedCode, type ConnectedSeller } from './real-service.ts';
import { clock, DAY, tempDirs } from './support.ts';

const chrome = useChromium();
const service = useSandboxService();
const tempDir = tempDirs();
let seller: ConnectedSeller;

beforeAll(async () => {
  seller = await connectedSeller(service.call, await chrome.page());
}, SLOW);

describe('the client against the real server process (sandbox mode, SQLite)', () => {
  test('checkout in Chromium, check binds the machine; after an unbind a second machine binds; the first then gets machine_mismatch', async () => {
    const [fp1, fp2] = await Promise.all(['one', 'two'].map((hostname) => machineFingerprint({ hostname, username: 'ada', os: 'linux', arch: 'amd64' })));
    const time1 = clock(Date.now());
    const first = appClient(service.url, seller, { cacheDir: tempDir(), fingerprint: fp1, now: time1.now });

    const bought = await buyInBrowser(first, seller, await chrome.page(), '+15551230001', 'first@example.com');
    const bound = await first.check();
    const onServer = await service.call('GET', `/licenses/${bought.license.id}`, { key: seller.apiKey });

    expect(await first.getCachedLicenseKey()).toBe(bought.licenseKey);
    expect(bought.license).toMatchObject({ productId: seller.productId, status: 'active', features: ['pro'], expiresAt: null });
    expect(bound).toEqual({ valid: true, offlineVerified: false, machineBound: true, machineFingerprint: fp1, license: bought.license });
    expect(onServer.body.machineFingerprint).toBe(fp1);

    const unbind = await fetch(`${service.url}/v1/licenses/${bought.license.id}/unbind`, { method: 'POST', headers: { authorization: `Bearer ${seller.apiKey}` } });
    const second = appClient(service.url, seller, { cacheDir: tempDir(), fingerprint: fp2 });
    await second.storeLicenseKey(bought.licenseKey);
    const rebound = await second.check();

    expect(unbind.status).toBe(200);
    expect(rebound).toMatchObject({ valid: true, offlineVerified: false, machineBound: true, machineFingerprint: fp2 });
    expect((await service.call('GET', `/licenses/${bought.license.id}`, { key: seller.apiKey })).body.machineFingerprint).toBe(fp2);

    const stillCached = await first.check();
    time1.advance(DAY);
    const mismatch = await first.check();

    expect(stillCached).toMatchObject({ valid: true, offlineVerified: true, machineFingerprint: fp1 });
    expect(mismatch).toEqual({ valid: false, reason: 'machine_mismatch', offlineVerified: false, machineBound: true });
  }, SLOW * 2);

  test('a revoked license: the next online check says revoked, and keeps saying it offline', async () => {
    const time = clock(Date.now());
    const cacheDir = tempDir();
    const client = appClient(service.url, seller, { cacheDir, now: time.now });
    const bought = await buyInBrowser(client, seller, await chrome.page(), '+15551230002', 'revoked@example.com');
    await client.check();

    const revoke = await service.call('POST', `/licenses/${bought.license.id}/revoke`, { key: seller.apiKey });
    time.advance(DAY);
    const revoked = await client.check();
    const offline = appClient('http://127.0.0.1:9', seller, { cacheDir, now: time.now });
    time.advance(DAY);

    expect(revoke.status).toBe(200);
    expect(revoked).toEqual({ valid: false, reason: 'revoked', offlineVerified: false });
    expect(await offline.check()).toMatchObject({ valid: false, reason: 'revoked' });
  }, SLOW * 2);

  test('the terminal flow: sign-in by e-mailed code lists the license; with the phone confirmed, a saved-card purchase stores a new key that checks valid', async () => {
    // A seller of its own: in the sandbox only a seller's first buyer of a card gets it saved (see the failing test below).
    const seller = await connectedSeller(service.call, await chrome.page());
    const phone = '+15551230003';
    const email = 'terminal@example.com';
    await buyInBrowser(appClient(service.url, seller, { cacheDir: tempDir() }), seller, await chrome.page(), phone, email);
    const terminal = appClient(service.url, seller, { cacheDir: tempDir() });

    const login = await terminal.loginInit(email);
    const verified = await terminal.loginVerify({ email, otpId: login.otpId, otp: await mailedCode(service.call, email) });
    await confirmPhone(service.url, service.call, verified.identityToken, phone, await machineFingerprint()); // the device the token is bound to
    const offer = await terminal.purchaseInit(seller.productId);
    const code = await terminal.purchaseOtp(offer.purchaseId);
    const confirmed = await terminal.purchaseConfirm({ purchaseId: offer.purchaseId, otpId: code.otpId, otp: await latestCode(service.call, phone), cardId: offer.cards[0]!.id });

    expect(verified.licenses).toHaveLength(1);
    expect(verified.licenses[0]).toMatchObject({ productId: seller.productId, productName: 'Pro Plan' });
    expect(offer).toMatchObject({ productName: 'Pro Plan', amount: 1999, currency: 'usd', cards: [{ last4: '4242' }] });
    expect(confirmed.license).toMatchObject({ productId: seller.productId, productName: 'Pro Plan', status: 'active' });
    expect(await terminal.getCachedLicenseKey()).toBe(confirmed.licenseKey);
    expect(await terminal.check()).toMatchObject({ valid: true, offlineVerified: false, license: { id: confirmed.license.id, productName: 'Pro Plan' } });

    await terminal.logout();
    const afterLogout = await terminal.purchaseInit(seller.productId).catch((e) => e);
    expect([afterLogout.status, afterLogout.code]).toEqual([401, 'unauthorized']);
  }, SLOW * 2);

  // BUG (src/adapters/sandbox/sandbox-payment.ts): the sandbox payment-method id is derived from the
  // card number alone, and saved cards are unique per (seller, payment method), so a seller's second
  // buyer paying with the pre-filled 4242 card gets no saved card and cannot buy in the terminal.
  // `test.failing` passes while the bug is there; remove `.failing` once it is fixed.
  test('every buyer who pays with the pre-filled sandbox card has it saved for the terminal flow', async () => {
    const seller = await connectedSeller(service.call, await chrome.page());
    for (const n of [1, 2]) {
      await buyInBrowser(appClient(service.url, seller, { cacheDir: tempDir() }), seller, await chrome.page(), `+1555123100${n}`, `buyer${n}@example.com`);
    }
    const terminal = appClient(service.url, seller, { cacheDir: tempDir() });
    const login = await terminal.loginInit('buyer2@example.com');
    const verified = await terminal.loginVerify({ email: 'buyer2@example.com', otpId: login.otpId, otp: await mailedCode(service.call, 'buyer2@example.com') });
    await confirmPhone(service.url, service.call, verified.identityToken, '+15551231002', await machineFingerprint());

    const offer = await terminal.purchaseInit(seller.productId);

    expect(offer.cards).toHaveLength(1);
  }, SLOW * 2);
});
