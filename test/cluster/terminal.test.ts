import { beforeAll, describe, expect, test } from 'bun:test';
import { aBuyer, confirmBuyerPhone, connectedSeller, countOf, expectError, confirmOnBothInstances, licensesOf, newCode, payInSandbox, purchaseReadyToConfirm, useService, type Buyer, type Service } from './cluster.ts';

/**
 * The terminal flow's limits hold for the service, not per instance: sends, attempts and single
 * use are counted in the shared database. Codes are read back from the sandbox outbox, also shared.
 */

const DEVICE = 'cluster-device';

/** A login code for the buyer, sent through instance `on`. */
async function loginChallenge(service: Service, buyer: Buyer, on = 0) {
  const { result: init, code } = await newCode(service, buyer.phone, () => service.on(on)('POST', '/auth/login/init', { body: { email: buyer.email } }));
  expect(init.status).toBe(200);
  return { otpId: init.body.otpId as string, code };
}

const verify = (service: Service, i: number, buyer: Buyer, otpId: string, otp: string) =>
  service.on(i)('POST', '/auth/login/verify', { body: { email: buyer.email, otpId, otp, deviceFingerprint: DEVICE } });

const wrong = (code: string) => `${(Number(code[0]) + 1) % 10}${code.slice(1)}`;

describe('two instances on one database, terminal flow in sandbox mode', () => {
  const service = useService(2);
  let seller: Awaited<ReturnType<typeof connectedSeller>>;

  /** A buyer who paid once in the browser: a customer with a phone and a saved 4242 card. */
  const aCustomer = async (confirmPhone = true) => {
    const buyer = aBuyer();
    await payInSandbox(service.next(), seller, seller.pro, buyer);
    if (confirmPhone) await confirmBuyerPhone(service, buyer);
    return buyer;
  };

  beforeAll(async () => {
    seller = await connectedSeller(service.next());
  });

  test('3 login sends on instance A, then the 4th on instance B is 429 rate_limited', async () => {
    const buyer = await aCustomer(false);
    const init = () => ({ body: { email: buyer.email } });
    const onA = [];
    for (let n = 0; n < 3; n++) onA.push(await service.on(0)('POST', '/auth/login/init', init()));

    const fourthOnB = await service.on(1)('POST', '/auth/login/init', init());

    expect(onA.map((r) => r.status)).toEqual([200, 200, 200]);
    expectError(fourthOnB, 429, 'rate_limited');
    expect(fourthOnB.headers.get('retry-after')).toMatch(/^\d+$/);
    const mail = await service.on(1)('GET', `/sandbox/mail?to=${encodeURIComponent(buyer.email)}`);
    // No confirmed phone: the codes went by e-mail (the checkout's receipt may be there too, whenever its sender got to it).
    const codes = (mail.body.data as { text: string }[]).filter((m) => /code is \d{6}/.test(m.text));
    expect(codes).toHaveLength(3);
  });

  test('5 wrong codes spread across instances use up the challenge: the right code is then 429 otp_attempts_exceeded', async () => {
    const buyer = await aCustomer();
    const { otpId, code } = await loginChallenge(service, buyer);

    const wrongs = await Promise.all([0, 1, 0, 1, 0].map((i) => verify(service, i, buyer, otpId, wrong(code))));
    const right = await verify(service, 1, buyer, otpId, code);

    for (const reply of wrongs) expectError(reply, 422, 'otp_invalid');
    expectError(right, 429, 'otp_attempts_exceeded');
  });

  test('10 concurrent verifies of the right code across instances: exactly one logs in; every attempt counts, so the others hear otp_invalid or otp_attempts_exceeded', async () => {
    const buyer = await aCustomer();
    const { otpId, code } = await loginChallenge(service, buyer, 1);

    const replies = await Promise.all(Array.from({ length: 10 }, (_, n) => verify(service, n % 2, buyer, otpId, code)));

    expect(countOf(replies, (r) => r.status === 200)).toBe(1);
    expect(replies.find((r) => r.status === 200)!.body.identityToken).toStartWith('idt_');
    for (const reply of replies.filter((r) => r.status !== 200)) {
      if (reply.status === 429) expectError(reply, 429, 'otp_attempts_exceeded');
      else expectError(reply, 422, 'otp_invalid');
    }
    const tokens = await service.db.query('SELECT t.token_hash FROM identity_tokens t JOIN customers c ON c.id = t.customer_id WHERE c.email = $1', [buyer.email]);
    expect(tokens).toHaveLength(1 + 1); // and the setup's sign-in that confirmed the phone
  });

  test('a purchase confirmed concurrently on both instances is charged once and yields one license', async () => {
    // Arrange: a logged-in customer with the 4242 card saved by the checkout, a purchase ready to confirm.
    const buyer = await aCustomer();
    const { otpId: loginId, code: loginCode } = await loginChallenge(service, buyer);
    const token = (await verify(service, 1, buyer, loginId, loginCode)).body.identityToken as string;
    const body = await purchaseReadyToConfirm(service, token, seller.plus, buyer.phone);
    const { purchaseId } = body;

    // Act and assert: 2 confirms on each instance at once all answer with the one license; one charge attempt was made.
    const licenseId = await confirmOnBothInstances(service, token, body);
    const [purchase] = await service.db.query<{ attempt: number; status: string; license_id: string }>(
      'SELECT attempt, status, license_id FROM purchases WHERE id = $1',
      [purchaseId],
    );
    expect(purchase).toEqual({ attempt: 1, status: 'paid', license_id: licenseId });
    const ofPlus = await service.db.query('SELECT id FROM licenses WHERE purchase_id = $1', [purchaseId]);
    expect(ofPlus).toHaveLength(1);
    expect(await licensesOf(service, buyer.email)).toHaveLength(2); // the checkout's and the purchase's
  });
});
