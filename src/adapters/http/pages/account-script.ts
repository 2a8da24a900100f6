import type { LicenseStatus } from '../../../domain/license.ts';
import { PHONE_LINK } from '../../../domain/phone-link.ts';
import { SafeHtml } from './html.ts';
import { PORTAL_SCRIPT } from './account-portal-script.ts';

/** What the buyer reads for each status: a status without its label fails the type check. */
export const LICENSE_STATUS_LABELS: Record<LicenseStatus, string> = { active: 'Active', expired: 'Expired', revoked: 'Revoked' };

/**
 * The buyer page's script, sent inline under the response's nonce (no build step, no outside asset).
 * It calls the JSON API at paths relative to the page (./auth/…, ./customer/…), so it works under
 * any prefix the service is mounted at, and builds every element with textContent: nothing from
 * the API is ever parsed as markup. The identity token lives in sessionStorage only (gone with the
 * tab); the device it is bound to is a random value kept there too.
 */
export const ACCOUNT_SCRIPT = new SafeHtml(String.raw`(() => {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const store = window.sessionStorage;
  const TOKEN = 'licensing.identityToken';
  const DEVICE = 'licensing.deviceFingerprint';
  // The API sits beside the page (…/v1/account → …/v1/auth/…), also when the URL ends in a slash.
  const API = location.pathname.endsWith('/') ? '../' : '';
  let email = '';
  let otpId = '';
  // A receipt's phone link: its token rides in the fragment (never sent to a server), dropped from the address bar at once.
  const LINK = '#${PHONE_LINK.fragment}=';
  let linkToken = location.hash.startsWith(LINK) ? location.hash.slice(LINK.length) : '';
  let linkOtpId = '';
  if (linkToken) history.replaceState(null, '', location.pathname + location.search);

  function device() {
    let value = store.getItem(DEVICE);
    if (!value) {
      const bytes = crypto.getRandomValues(new Uint8Array(16));
      value = 'browser-' + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
      store.setItem(DEVICE, value);
    }
    return value;
  }

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function show(view) {
    for (const id of ['email-form', 'code-form', 'link-form', 'link-code-form', 'licenses']) $(id).hidden = id !== view;
  }
  function say(id, text) {
    $(id).textContent = text || '';
    $(id).hidden = !text;
  }
  function clearMessages() {
    say('error', '');
    say('notice', '');
  }
  function waitText(seconds) {
    if (seconds < 120) return seconds + ' seconds';
    if (seconds < 7200) return Math.ceil(seconds / 60) + ' minutes';
    if (seconds < 172800) return Math.ceil(seconds / 3600) + ' hours';
    return Math.ceil(seconds / 86400) + ' days';
  }
  const day = (ms) => new Date(ms).toISOString().slice(0, 10);

  async function api(method, path, body, signedIn) {
    const headers = { accept: 'application/json' };
    if (signedIn) {
      headers.authorization = 'Bearer ' + store.getItem(TOKEN);
      headers['x-device-fingerprint'] = device();
    }
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response;
    try {
      response = await fetch(API + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'omit', cache: 'no-store' });
    } catch {
      throw Object.assign(new Error('The service could not be reached. Check the connection and try again.'), { status: 0 });
    }
    const data = await response.json().catch(() => null);
    if (response.ok) return data;
    let message = (data && data.error && data.error.message) || 'The request failed (HTTP ' + response.status + ').';
    const retry = Number(response.headers.get('retry-after'));
    if (response.status === 429 && retry > 0) message += ' Try again in ' + waitText(retry) + ' (Retry-After: ' + retry + ' s).';
    throw Object.assign(new Error(message), { status: response.status });
  }

  function fail(error) {
    if (error.status === 401 && store.getItem(TOKEN)) {
      store.removeItem(TOKEN);
      show('email-form');
      say('error', 'Your sign-in has ended: sign in again.');
      return;
    }
    say('error', error.message);
  }

  async function copyKey(key, button) {
    key.select();
    let copied = false;
    try { await navigator.clipboard.writeText(key.value); copied = true; } catch { copied = document.execCommand('copy'); }
    button.textContent = copied ? 'Copied' : 'Press Ctrl+C (or ⌘C) to copy';
  }

${PORTAL_SCRIPT}
  async function removeMachine(box, license, activation, button) {
    clearMessages();
    const name = activation.name || 'this machine';
    if (!(await ask('Remove ' + name + '?', 'Its slot is freed for another machine; the application on it stops working until it is activated again. Removals are limited per 30 days.', 'Remove machine'))) return;
    button.disabled = true;
    try {
      const path = 'customer/licenses/' + encodeURIComponent(license.id) + '/activations/' + encodeURIComponent(activation.id);
      const left = await api('DELETE', path, undefined, true);
      renderMachines(box, { id: license.id, maxMachines: left.maxMachines, activations: left.data });
      say('notice', 'Removed ' + (activation.name || 'the machine') + ': its slot is free for another machine.');
    } catch (error) {
      button.disabled = false;
      fail(error);
    }
  }

  function renderMachines(box, license) {
    box.replaceChildren();
    const limit = license.maxMachines === null ? 'unlimited' : String(license.maxMachines);
    box.append(el('h3', null, 'Machines: ' + license.activations.length + ' of ' + limit));
    if (license.activations.length === 0) {
      box.append(el('p', 'muted', 'Not active on any machine: the next one to use the key takes a slot.'));
      return;
    }
    const list = el('ul', 'machines');
    for (const activation of license.activations) {
      const name = activation.name || 'Unnamed machine';
      const about = el('div');
      about.append(el('strong', 'machine-name', name));
      about.append(el('span', 'hint', 'Added ' + day(activation.createdAt) + ', last seen ' + day(activation.lastSeenAt) + ' · ' + activation.machineFingerprint.slice(0, 12) + '…'));
      const remove = el('button', 'button secondary', 'Remove');
      remove.type = 'button';
      remove.setAttribute('aria-label', 'Remove ' + name);
      remove.addEventListener('click', () => removeMachine(box, license, activation, remove));
      const item = el('li');
      item.append(about, remove);
      list.append(item);
    }
    box.append(list);
  }

  function licenseCard(license) {
    const card = el('section', 'license');
    const title = license.productName || 'License';
    card.setAttribute('aria-label', title);
    card.append(el('h2', null, title));
    // Two licenses of one product read apart by their seller, id and dates.
    card.append(el('p', 'muted', 'From ' + license.sellerName + ' · ' + license.id + ' · issued ' + day(license.issuedAt) + (license.trial ? ' · free trial' : '')));
    const term = license.expiresAt === null ? 'never expires' : 'valid until ' + day(license.expiresAt) + ' (UTC)';
    const status = ${JSON.stringify(LICENSE_STATUS_LABELS)}[license.status] || license.status;
    card.append(el('p', 'muted', status + ', ' + term + (license.features.length ? '. Includes: ' + license.features.join(', ') : '') + '.'));
    const key = el('textarea', 'key');
    key.id = 'key-' + license.id;
    key.readOnly = true;
    key.rows = 4;
    key.spellcheck = false;
    key.value = license.licenseKey;
    key.addEventListener('focus', () => key.select());
    const label = el('label', null, 'License key');
    label.htmlFor = key.id;
    const copy = el('button', 'button secondary', 'Copy license key');
    copy.type = 'button';
    copy.addEventListener('click', () => copyKey(key, copy));
    const machines = el('div');
    renderMachines(machines, license);
    card.append(label, key, copy, machines, offlineMachine(license, machines));
    return card;
  }

  // docs/machine-files.md: a machine with no network writes a request file; the answer is carried back to it.
  function offlineMachine(license, machines) {
    const box = el('details', 'offline');
    box.append(el('summary', null, 'A machine with no network'));
    box.append(el('p', 'muted', 'The application on that machine writes a request file. Paste it here, then copy the machine file back to that machine: it works offline until the date shown.'));
    const request = el('textarea', 'key');
    request.id = 'mf-request-' + license.id;
    request.rows = 4;
    request.spellcheck = false;
    const requestLabel = el('label', null, 'Request file');
    requestLabel.htmlFor = request.id;
    const make = el('button', 'button secondary', 'Make machine file');
    make.type = 'button';
    const result = el('div');
    make.addEventListener('click', async () => {
      clearMessages();
      let body;
      try { body = JSON.parse(request.value); } catch { body = null; }
      if (!body || typeof body !== 'object' || Array.isArray(body)) {
        say('error', 'That is not a request file: paste the whole text the application wrote.');
        return request.focus();
      }
      make.disabled = true;
      try {
        const issued = await api('POST', 'customer/licenses/' + encodeURIComponent(license.id) + '/machine-file', body, true);
        const file = el('textarea', 'key');
        file.id = 'mf-file-' + license.id;
        file.readOnly = true;
        file.rows = 4;
        file.value = issued.machineFile;
        const fileLabel = el('label', null, 'Machine file, valid until ' + day(issued.file.expiresAt) + ' (UTC)');
        fileLabel.htmlFor = file.id;
        const copyFile = el('button', 'button secondary', 'Copy machine file');
        copyFile.type = 'button';
        copyFile.addEventListener('click', () => copyKey(file, copyFile));
        result.replaceChildren(fileLabel, file, copyFile);
        say('notice', 'Machine file made: copy it to the offline machine.');
        const fresh = await api('GET', 'customer/licenses', undefined, true);
        const current = fresh.data.find((l) => l.id === license.id);
        if (current) renderMachines(machines, current);
        file.focus();
      } catch (error) {
        fail(error);
      } finally {
        make.disabled = false;
      }
    });
    box.append(requestLabel, request, make, result);
    return box;
  }

  async function loadLicenses() {
    const [answer] = await Promise.all([api('GET', 'customer/licenses', undefined, true), loadSubscriptions(), loadOrders()]);
    const list = $('license-list');
    list.replaceChildren(...answer.data.map(licenseCard));
    if (answer.data.length === 0) list.append(el('p', 'muted', 'There are no licenses for this e-mail yet.'));
    show('licenses');
  }

  // Every form: no page load, earlier messages cleared, a failed call said in the error line.
  function onSubmit(form, handle) {
    $(form).addEventListener('submit', async (event) => {
      event.preventDefault();
      clearMessages();
      try {
        await handle();
      } catch (error) {
        fail(error);
      }
    });
  }

  onSubmit('email-form', async () => {
    email = $('email').value.trim();
    if (!email) {
      say('error', 'Enter the e-mail address you bought with.');
      return $('email').focus();
    }
    const sent = await api('POST', 'auth/login/init', { email });
    otpId = sent.otpId;
    $('code-sent').textContent = 'We sent a 6-digit code to ' + email + ', or by text to your confirmed phone (' + sent.phoneMasked + ') if you have one.';
    $('code').value = '';
    show('code-form');
    $('code').focus();
  });

  onSubmit('code-form', async () => {
    const verified = await api('POST', 'auth/login/verify', { email, otpId, otp: $('code').value.trim(), deviceFingerprint: device() });
    store.setItem(TOKEN, verified.identityToken);
    await loadLicenses();
  });

  let phone = '';
  let phoneOtpId = '';
  onSubmit('phone-form', async () => {
    phone = $('phone').value.trim();
    if (!phone) {
      say('error', 'Enter the phone number, with its country code.');
      return $('phone').focus();
    }
    const sent = await api('POST', 'customer/phone', { phone }, true);
    phoneOtpId = sent.otpId;
    $('phone-code-sent').textContent = 'We texted a code to ' + sent.phoneMasked + '.';
    $('phone-code').value = '';
    $('phone-code-form').hidden = false;
    $('phone-code').focus();
  });

  onSubmit('phone-code-form', async () => {
    const done = await api('POST', 'customer/phone/verify', { phone, otpId: phoneOtpId, otp: $('phone-code').value.trim() }, true);
    $('phone-code-form').hidden = true;
    $('phone').value = '';
    say('notice', 'Your sign-in phone is now ' + done.phoneMasked + '.');
  });

  onSubmit('link-form', async () => {
    const sent = await api('POST', 'auth/phone-link', { token: linkToken });
    linkOtpId = sent.otpId;
    $('link-code-sent').textContent = 'We texted a 6-digit code to ' + sent.phoneMasked + '.';
    $('link-code').value = '';
    show('link-code-form');
    $('link-code').focus();
  });

  onSubmit('link-code-form', async () => {
    const done = await api('POST', 'auth/phone-link/verify', { token: linkToken, otpId: linkOtpId, otp: $('link-code').value.trim(), deviceFingerprint: device() });
    store.setItem(TOKEN, done.identityToken);
    linkToken = '';
    await loadLicenses();
    say('notice', 'Your sign-in phone is now ' + done.phoneMasked + '.');
  });

  $('link-cancel').addEventListener('click', () => {
    clearMessages();
    linkToken = '';
    show('email-form');
    $('email').focus();
  });

  $('restart').addEventListener('click', () => {
    clearMessages();
    show('email-form');
    $('email').focus();
  });

  $('sign-out').addEventListener('click', async () => {
    clearMessages();
    // Revoked on the server too; signed out here whatever it answers.
    await api('POST', 'auth/logout', undefined, true).catch(() => null);
    store.removeItem(TOKEN);
    for (const id of ['license-list', 'subscription-list', 'order-list']) $(id).replaceChildren();
    show('email-form');
    say('notice', 'Signed out.');
  });

  if (linkToken) show('link-form');
  else if (store.getItem(TOKEN)) loadLicenses().catch(fail);
})();`);
