import type { SubscriptionStatus } from '../../../domain/subscription.ts';

/** What the buyer reads for each subscription status: a status without its label fails the type check. */
export const SUBSCRIPTION_STATUS_LABELS: Record<SubscriptionStatus, string> = { active: 'Active', past_due: 'Payment failed', canceled: 'Ended' };

/**
 * The portal half of the buyer page's script (docs/customers.md): subscriptions (cancel, resume,
 * change card), orders with their receipts, and the confirm dialog that Remove and Cancel ask
 * through. Spliced into ACCOUNT_SCRIPT's function, whose helpers ($, el, api, say, fail, day,
 * clearMessages) it uses. The dialog is a native <dialog> opened modal: focus moves into it,
 * Escape closes it as "no", and focus returns to the button that opened it.
 */
export const PORTAL_SCRIPT = String.raw`
  function money(amount, currency) {
    try {
      const format = new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() });
      return format.format(amount / 10 ** format.resolvedOptions().maximumFractionDigits);
    } catch {
      return amount + ' ' + currency;
    }
  }

  function ask(title, text, yes) {
    const dialog = $('confirm');
    const opener = document.activeElement;
    $('confirm-title').textContent = title;
    $('confirm-text').textContent = text;
    $('confirm-yes').textContent = yes;
    dialog.returnValue = '';
    return new Promise((resolve) => {
      dialog.addEventListener('close', () => {
        if (opener && opener.focus) opener.focus();
        resolve(dialog.returnValue === 'yes');
      }, { once: true });
      dialog.showModal();
      $('confirm-no').focus();
    });
  }

  const STATUS = ${JSON.stringify(SUBSCRIPTION_STATUS_LABELS)};

  function subscriptionTerms(s) {
    const price = money(s.amount, s.currency) + ' per ' + s.interval;
    if (s.status === 'canceled') return 'Ended' + (s.canceledAt ? ' on ' + day(s.canceledAt) : '') + '.';
    if (s.cancelAtPeriodEnd) return price + '. Canceled: runs until ' + day(s.trialEnd || s.currentPeriodEnd) + ', no further charge.';
    const trial = s.trialEnd ? 'Free trial until ' + day(s.trialEnd) + '. ' : '';
    return trial + price + '. Next charge ' + day(s.nextChargeAt) + ' (UTC).';
  }

  async function changeRenewal(s, action, button) {
    clearMessages();
    const name = s.productName || 'this subscription';
    if (action === 'cancel' && !(await ask('Cancel ' + name + '?', 'It will not be charged again. It keeps working until ' + day(s.trialEnd || s.currentPeriodEnd) + ', then ends; you can resume it until then.', 'Cancel subscription'))) return;
    button.disabled = true;
    try {
      await api('POST', 'customer/subscriptions/' + encodeURIComponent(s.id) + '/' + action, undefined, true);
      await loadSubscriptions();
      say('notice', action === 'cancel' ? 'Canceled ' + name + ': no further charge.' : 'Resumed ' + name + ': it renews as before.');
    } catch (error) {
      button.disabled = false;
      fail(error);
    }
  }

  async function changeCard(s, button) {
    clearMessages();
    button.disabled = true;
    try {
      const page = await api('POST', 'customer/card', { subscriptionId: s.id }, true);
      location.assign(page.url);
    } catch (error) {
      button.disabled = false;
      fail(error);
    }
  }

  function subscriptionCard(s) {
    const card = el('li', 'item');
    const title = s.productName || 'Subscription';
    card.append(el('h3', null, title));
    card.append(el('p', 'muted', 'From ' + s.sellerName + ' · ' + (STATUS[s.status] || s.status) + ' · ' + s.id));
    card.append(el('p', null, subscriptionTerms(s)));
    if (s.status === 'canceled') return card;
    const actions = el('div', 'actions');
    const renewal = s.cancelAtPeriodEnd ? 'resume' : 'cancel';
    const toggle = el('button', 'button secondary', renewal === 'cancel' ? 'Cancel subscription' : 'Resume subscription');
    toggle.type = 'button';
    // The visible words first, then which subscription (WCAG 2.5.3: the name holds the label).
    toggle.setAttribute('aria-label', toggle.textContent + ' to ' + title);
    toggle.addEventListener('click', () => changeRenewal(s, renewal, toggle));
    const cardButton = el('button', 'button secondary', 'Change card');
    cardButton.type = 'button';
    cardButton.setAttribute('aria-label', 'Change card for ' + title);
    cardButton.addEventListener('click', () => changeCard(s, cardButton));
    actions.append(toggle, cardButton);
    card.append(actions);
    return card;
  }

  async function loadSubscriptions() {
    const answer = await api('GET', 'customer/subscriptions', undefined, true);
    const list = $('subscription-list');
    list.replaceChildren(...answer.data.map(subscriptionCard));
    $('subscriptions').hidden = answer.data.length === 0;
  }

  function orderItem(o) {
    const item = el('li', 'item');
    item.append(el('strong', null, (o.productName || 'Order') + ' · ' + money(o.amount, o.currency)));
    const refunded = o.amountRefunded > 0 ? ' · refunded ' + money(o.amountRefunded, o.currency) : '';
    item.append(el('span', 'hint', day(o.createdAt) + ' · ' + o.sellerName + ' · ' + o.id + refunded));
    if (o.receiptUrl) {
      const link = el('a', null, 'Receipt');
      link.href = o.receiptUrl;
      link.target = '_blank';
      link.rel = 'noopener noreferrer';
      link.setAttribute('aria-label', 'Receipt of ' + (o.productName || 'the order') + ', ' + day(o.createdAt) + ' (opens a new tab)');
      item.append(link);
    }
    return item;
  }

  async function loadOrders() {
    const answer = await api('GET', 'customer/orders', undefined, true);
    $('order-list').replaceChildren(...answer.data.map(orderItem));
    $('orders').hidden = answer.data.length === 0;
  }
`;
