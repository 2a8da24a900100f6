import { latestCode, mailedCode, randomHex, randomPhone, type Call, type Reply } from './client.ts';
import type { Ledger } from './ledger.ts';
import { PAYING_CARD, type Buyer, type Shop } from './setup.ts';

/** How many first validations of one license race each other. */
const RACERS = 3;

class Unexpected extends Error {}

/** What a step answers when it sent nothing this time round. */
const IDLE: unique symbol = Symbol('idle');

/** `call`, counting what is in flight and cut off, and refusing a 5xx outright. */
function counted(call: Call, ledger: Ledger): Call {
  return async (method, path, options) => {
    ledger.requests++;
    ledger.inFlight++;
    try {
      const reply = await call(method, path, options);
      if (reply.status >= 500) throw new Unexpected(`${method} ${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
      return reply;
    } catch (error) {
      if (!(error instanceof Unexpected)) ledger.lost++;
      throw error;
    } finally {
      ledger.inFlight--;
    }
  };
}

function expect(reply: Reply, status: number, what: string): any {
  if (reply.status !== status) throw new Unexpected(`${what}: ${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`);
  return reply.body;
}

/**
 * Drives first validations, sandbox checkouts and terminal purchases at once until each worker's
 * requests fail. A failure before `killed()` is a violation; after it (the process is being killed),
 * it is a lost request and the worker ends. Workers keep going through the kill instead of stopping
 * at it, so every worker ends on a request the kill cut off, and whatever was acknowledged up to the
 * process's last moment is in the ledger.
 */
export function drive(rawCall: Call, shop: Shop, ledger: Ledger, killed: () => boolean): Promise<unknown> {
  const call = counted(rawCall, ledger);
  const loop = async (name: string, step: () => Promise<void | typeof IDLE>) => {
    for (;;) {
      try {
        // A worker with nothing to send ends at the kill; one that sends ends on the request it cut off.
        if ((await step()) === IDLE && killed()) return;
      } catch (error) {
        if (!killed() || error instanceof Unexpected) ledger.violations.push(`${name}: ${(error as Error).message}`);
        return;
      }
    }
  };
  const workers = [
    loop('validations 1', () => firstValidations(call, shop, ledger)),
    loop('validations 2', () => firstValidations(call, shop, ledger)),
    loop('checkouts 1', () => checkout(call, shop, ledger)),
    loop('checkouts 2', () => checkout(call, shop, ledger)),
    ...shop.buyers.map((buyer, i) => {
      let token: string | undefined;
      return loop(`purchases ${i}`, async () => purchase(call, shop, ledger, buyer, (token ??= await terminalBuyer(call, buyer))));
    }),
  ];
  return Promise.allSettled(workers);
}

/** RACERS validations of one unvalidated license with random fingerprints: one must win. */
async function firstValidations(call: Call, shop: Shop, ledger: Ledger) {
  const licenseId = ledger.unbound.shift();
  if (!licenseId) {
    await Bun.sleep(5);
    return IDLE;
  }
  const { licenseKey } = ledger.licenses.get(licenseId)!;
  const racers = Array.from({ length: RACERS }, () => randomHex(32));
  for (const fingerprint of racers) ledger.tryFingerprint(licenseId, fingerprint);
  const replies = await Promise.allSettled(
    racers.map(async (machineFingerprint) => {
      const reply = await call('POST', '/licenses/validate', { key: shop.publishableKey, body: { licenseKey, machineFingerprint } });
      ledger.recordValidation(licenseId, machineFingerprint, reply);
    }),
  );
  const failed = replies.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
}

/** A browser checkout by a new buyer: init, Pay on the sandbox page, then the status poll. */
async function checkout(call: Call, shop: Shop, ledger: Ledger) {
  const productId = shop.products[Math.floor(Math.random() * shop.products.length)];
  const init = expect(await call('POST', '/checkout/init', { key: shop.publishableKey, body: { productId } }), 201, 'checkout init');
  const form = { email: `walk-in-${randomHex(6)}@example.com`, phone: randomPhone(), cardNumber: PAYING_CARD };
  expect(await call('POST', `/sandbox/checkout/${init.sessionId}/pay`, { form }), 303, 'pay');
  ledger.paidSessions.add(init.sessionId);
  const status = expect(await call('GET', `/checkout/status/${init.sessionId}`), 200, 'checkout status');
  if (status.status !== 'complete') throw new Unexpected(`a paid session polls as ${status.status}`);
  ledger.sessionLicenses.set(init.sessionId, status.license.id);
  ledger.addLicense(status.license.id, status.licenseKey, 'checkout');
}

/**
 * The sign-in of a returning buyer (by e-mailed code), who then confirms the checkout's phone (a
 * code texted to it) so the saved card is offered: the identity token their purchases use.
 */
async function terminalBuyer(call: Call, buyer: Buyer): Promise<string> {
  const init = expect(await call('POST', '/auth/login/init', { body: { email: buyer.email } }), 200, 'login init');
  const otp = await mailedCode(call, buyer.email);
  const body = { email: buyer.email, otpId: init.otpId, otp, deviceFingerprint: buyer.device };
  const token = expect(await call('POST', '/auth/login/verify', { body }), 200, 'login verify').identityToken as string;
  const asked = await call('POST', '/customer/phone', { bearer: token, body: { phone: buyer.phone } });
  if (asked.status === 409) return token;
  const sent = expect(asked, 200, 'phone');
  expect(await call('POST', '/customer/phone/verify', { bearer: token, body: { phone: buyer.phone, otpId: sent.otpId, otp: await latestCode(call, buyer.phone) } }), 200, 'phone verify');
  return token;
}

/** A terminal purchase with the saved card: init, a purchase code by SMS, confirm. */
async function purchase(call: Call, shop: Shop, ledger: Ledger, buyer: Buyer, token: string) {
  const productId = shop.products[Math.floor(Math.random() * shop.products.length)];
  const init = expect(await call('POST', '/purchase/init', { bearer: token, body: { productId } }), 200, 'purchase init');
  const sent = await call('POST', '/purchase/otp', { bearer: token, body: { purchaseId: init.purchaseId } });
  // A customer is texted at most 5 codes per 15 minutes (docs/codes-and-sign-in.md): past that, this buyer idles.
  if (sent.status === 429 && sent.body?.error?.code === 'rate_limited') {
    await Bun.sleep(100);
    return IDLE;
  }
  const otp = expect(sent, 200, 'purchase otp');
  const body = { purchaseId: init.purchaseId, otpId: otp.otpId, otp: await latestCode(call, buyer.phone), cardId: init.cards[0].id };
  const confirmed = expect(await call('POST', '/purchase/confirm', { bearer: token, body }), 200, 'purchase confirm');
  ledger.confirmed.set(init.purchaseId, { licenseId: confirmed.license.id, token, body });
  ledger.addLicense(confirmed.license.id, confirmed.licenseKey, 'purchase');
}
