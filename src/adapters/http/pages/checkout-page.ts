import type { CheckoutOffer } from '../../../domain/checkout-offer.ts';
import type { CheckoutSession, CheckoutStatus } from '../../../domain/checkout-session.ts';
import type { Product } from '../../../domain/product.ts';
import type { SandboxFailure } from '../../sandbox/sandbox-payment.ts';
import { html } from './html.ts';
import { ICONS, layout } from './layout.ts';

export const SANDBOX_CARD = '4242 4242 4242 4242';
export const DECLINED_CARD = '4000 0000 0000 0002';

export interface CheckoutForm {
  email: string;
  phone: string;
  cardNumber: string;
}

export interface CheckoutPageInput {
  session: CheckoutSession;
  product: Product;
  /** The seller's account name: a buyer should know whom they pay. */
  sellerName: string;
  status: CheckoutStatus;
  /** The terms shown above the form (checkoutOffer, the same words Stripe's page gets). */
  offer: CheckoutOffer;
  /** PUBLIC_BASE_URL + "/v1": where the form posts. */
  apiBaseUrl: string;
  /** Why the last Pay failed; the form is shown again with what the buyer typed. */
  error?: SandboxFailure;
  values?: CheckoutForm;
}

type Field = keyof CheckoutForm;

const ERRORS: Record<SandboxFailure, { field: Field; message: string }> = {
  declined: { field: 'cardNumber', message: 'Your card was declined. Try another card.' },
  invalid_card: { field: 'cardNumber', message: 'That card number is not valid. Check the digits and try again.' },
  invalid_email: { field: 'email', message: 'Enter a valid e-mail address, like name@example.com.' },
  invalid_phone: { field: 'phone', message: 'Enter a phone number with 7 to 15 digits, like +1 555 010 0000.' },
};

/** The sandbox's hosted payment page, or what stands in its place once paid or expired. */
export function checkoutPage(input: CheckoutPageInput): string {
  if (input.status === 'complete') return alreadyPaidPage(input);
  if (input.status === 'expired') return expiredPage(input);
  return payPage(input);
}

function payPage({ session, product, sellerName, offer, apiBaseUrl, error, values }: CheckoutPageInput): string {
  const form = values ?? { email: session.email ?? '', phone: '', cardNumber: SANDBOX_CARD };
  const problem = error ? ERRORS[error] : null;
  const invalid = (field: Field) => (problem?.field === field ? html` aria-invalid="true" aria-describedby="form-error"` : '');
  const action = `${apiBaseUrl}/sandbox/checkout/${encodeURIComponent(session.id)}`;
  return layout({
    title: `Pay ${offer.price} for ${product.name}`,
    sandbox: true,
    body: html`<p class="muted">You are buying from <strong>${sellerName}</strong></p>
<h1>${product.name}</h1>
<p class="price">${offer.price}</p>
<ul class="terms">
${offer.terms.map((term) => html`<li>${term}</li>`)}
</ul>
${problem ? html`<div class="alert" role="alert" id="form-error">${problem.message}</div>` : ''}
<form method="post" action="${action}/pay">
<label for="email">E-mail</label>
<input id="email" name="email" type="email" required maxlength="254" autocomplete="email" value="${form.email}"${invalid('email')}>
<label for="phone">Phone <span class="hint">Used to send you sign-in codes by SMS.</span></label>
<input id="phone" name="phone" type="tel" required maxlength="32" autocomplete="tel" placeholder="+1 555 010 0000" value="${form.phone}"${invalid('phone')}>
<label for="cardNumber">Card number</label>
<input id="cardNumber" name="cardNumber" type="text" required maxlength="32" inputmode="numeric" autocomplete="cc-number" value="${form.cardNumber}"${invalid('cardNumber')}>
<button type="submit" class="button primary">${offer.action}</button>
<button type="submit" class="button secondary" formaction="${action}/cancel" formnovalidate>Cancel</button>
</form>
<div class="note"><strong>This is a sandbox:</strong> no money moves and nothing leaves this machine.
Any valid card number pays, e.g. <code>${SANDBOX_CARD}</code>; <code>${DECLINED_CARD}</code> is declined, as in Stripe's test mode. <code>4000 0000 0000 0341</code> and <code>4000 0027 6000 3184</code> pay here and are saved, but a later saved-card purchase is declined with the first and needs the holder to authenticate with the second.</div>`,
  });
}

function alreadyPaidPage({ session, product }: CheckoutPageInput): string {
  return layout({
    title: 'Already paid',
    sandbox: true,
    body: html`<div class="center">${ICONS.check}
<h1>Already paid</h1>
<p class="muted">${product.name} is paid for. Your license is waiting in the application.</p>
<a class="button primary" href="${session.successUrl}">Return to the application</a></div>`,
  });
}

function expiredPage({ session, product }: CheckoutPageInput): string {
  return layout({
    title: 'Checkout expired',
    sandbox: true,
    body: html`<div class="center">${ICONS.clock}
<h1>This checkout has expired</h1>
<p class="muted">Checkout links last 30 minutes. Nothing was charged for ${product.name}: return to the application to start again.</p>
<a class="button primary" href="${session.cancelUrl}">Return to the application</a></div>`,
  });
}
