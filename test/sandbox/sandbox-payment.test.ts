import { describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { cardBrand, sandboxCompletion, type SandboxPayment } from '../../src/adapters/sandbox/sandbox-payment.ts';

const NOW = Date.UTC(2026, 5, 15);
const GOOD = { email: 'Buyer@Example.com', phone: '+1 (555) 010-0000', cardNumber: '4242 4242 4242 4242' };
const pay = (changes: Partial<typeof GOOD> = {}) => sandboxCompletion('cs_123', { ...GOOD, ...changes }, NOW);
const sha16 = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 16);

function completion(payment: SandboxPayment) {
  if (!payment.ok) throw new Error(`expected a payment, got ${payment.reason}`);
  return payment.completion;
}

describe('a sandbox payment', () => {
  test('with the test card completes like a Stripe checkout: customer, phone, saved card and payment', () => {
    expect(completion(pay())).toEqual({
      email: 'buyer@example.com',
      phone: '+15550100000',
      processorCustomerId: `cus_sandbox_${sha16('buyer@example.com')}`,
      paymentId: 'pi_sandbox_cs_123',
      card: { processorPaymentMethodId: `pm_sandbox_${sha16('buyer@example.com\n4242424242424242')}`, brand: 'visa', last4: '4242', expMonth: 12, expYear: 2029 },
    });
  });

  test('takes the card expiry year from the clock it is given, three years on', () => {
    const payment = sandboxCompletion('cs_1', GOOD, Date.UTC(2031, 0, 1));
    expect(completion(payment).card?.expYear).toBe(2034);
  });

  test('names the same card and customer for the same inputs, whatever the session or spelling', () => {
    const first = completion(sandboxCompletion('cs_a', GOOD, NOW));
    const second = completion(sandboxCompletion('cs_b', { ...GOOD, email: ' buyer@example.COM ', cardNumber: '4242-4242-4242-4242' }, NOW));
    expect(second.card?.processorPaymentMethodId).toBe(first.card!.processorPaymentMethodId);
    expect(second.processorCustomerId).toBe(first.processorCustomerId);
    expect(second.paymentId).not.toBe(first.paymentId);
  });
});

describe('the card number', () => {
  test('4000 0000 0000 0002 is declined, as in Stripe test mode', () => {
    expect(pay({ cardNumber: '4000 0000 0000 0002' })).toEqual({ ok: false, reason: 'declined' });
  });

  test.each([
    ['4000 0000 0000 0341', 'pm_sandbox_decline_', '4000000000000341'],
    ['4000 0027 6000 3184', 'pm_sandbox_auth_', '4000002760003184'],
  ])('%s (Stripe’s off-session test card) pays and is saved as %s<digest>, for later charges to fail', (cardNumber, prefix, digits) => {
    const card = completion(pay({ cardNumber })).card;
    expect(card?.processorPaymentMethodId).toBe(`${prefix}${sha16(`buyer@example.com\n${digits}`)}`);
    expect(card?.last4).toBe(digits.slice(-4));
  });

  test('any other card is saved as pm_sandbox_<digest>, unmarked', () => {
    const id = completion(pay({ cardNumber: '5555 5555 5555 4444' })).card?.processorPaymentMethodId;
    expect(id).toBe(`pm_sandbox_${sha16('buyer@example.com\n5555555555554444')}`);
  });

  test('two buyers typing the same card get payment methods of their own', () => {
    const first = completion(pay({ email: 'one@example.com' })).card?.processorPaymentMethodId;
    const second = completion(pay({ email: 'two@example.com' })).card?.processorPaymentMethodId;
    expect(first).not.toBe(second);
  });

  test.each([
    ['a failed Luhn check', '4242 4242 4242 4241'],
    ['11 digits', '79927398713'.slice(0, 11)],
    ['20 digits', '4'.padEnd(19, '0') + '0'],
    ['letters', '4242 4242 4242 424a'],
    ['other separators', '4242/4242/4242/4242'],
    ['nothing', ''],
  ])('with %s is invalid_card', (_, cardNumber) => {
    expect(pay({ cardNumber })).toEqual({ ok: false, reason: 'invalid_card' });
  });

  test.each([
    ['12 digits', '000000000000'],
    ['19 digits', '6011000000000000001'],
  ])('of %s, Luhn-valid, pays', (_, cardNumber) => {
    expect(completion(pay({ cardNumber })).card?.last4).toBe(cardNumber.slice(-4));
  });

  test.each([
    ['4242424242424242', 'visa'],
    ['5555555555554444', 'mastercard'],
    ['5105105105105100', 'mastercard'],
    ['2223003122003222', 'mastercard'],
    ['2720990000000007', 'mastercard'],
    ['378282246310005', 'amex'],
    ['341111111111111', 'amex'],
    ['6011111111111117', 'discover'],
    ['6511111111111114', 'discover'],
    ['3566002020360505', 'unknown'],
    ['2721000000000000', 'unknown'],
    ['5600000000000000', 'unknown'],
  ])('%s is %s', (number, brand) => {
    expect(cardBrand(number)).toBe(brand);
  });

  test('brand and last4 of a paid card come from its number', () => {
    const card = completion(pay({ cardNumber: '3782 822463 10005' })).card;
    expect({ brand: card?.brand, last4: card?.last4 }).toEqual({ brand: 'amex', last4: '0005' });
  });
});

describe('the phone number', () => {
  test.each([
    ['+44 20 7946 0958', '+442079460958'],
    ['555.010.0000', '5550100000'],
    ['1234567', '1234567'],
    ['+123456789012345', '+123456789012345'],
  ])('%s is kept as %s', (phone, kept) => {
    expect(completion(pay({ phone })).phone).toBe(kept);
  });

  test.each([
    ['6 digits', '123456'],
    ['16 digits', '+1234567890123456'],
    ['letters', '+1 555 CALL NOW'],
    ['a + inside', '555+0100000'],
    ['nothing', ''],
  ])('with %s is invalid_phone', (_, phone) => {
    expect(pay({ phone })).toEqual({ ok: false, reason: 'invalid_phone' });
  });
});

test('an address that is not an e-mail is invalid_email, checked before the card', () => {
  expect(pay({ email: 'not-an-address', cardNumber: '4000 0000 0000 0002' })).toEqual({ ok: false, reason: 'invalid_email' });
});
