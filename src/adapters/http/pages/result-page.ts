import { html, SafeHtml } from './html.ts';
import { ICONS, layout } from './layout.ts';

const RESULTS = {
  success: {
    title: 'Payment complete',
    icon: ICONS.check,
    message: 'Return to the application: your license is ready there. You can close this tab.',
  },
  cancel: {
    title: 'Payment cancelled',
    icon: ICONS.cross,
    message: 'Nothing was charged. Return to the application to try again. You can close this tab.',
  },
  pending: {
    title: 'Payment received',
    icon: ICONS.clock,
    message: 'Your license is being issued. Return to the application: it will have it in a moment, or reload this page.',
  },
} as const;

/** The default successUrl and cancelUrl pages: the application, polling, takes it from here. */
export function resultPage(outcome: keyof typeof RESULTS): string {
  const result = RESULTS[outcome];
  return layout({
    title: result.title,
    body: html`<div class="center">${result.icon}
<h1>${result.title}</h1>
<p class="muted">${result.message}</p></div>`,
  });
}

export interface IssuedLicenseView {
  licenseKey: string;
  features: string[];
  expiresAt: number | null;
  /** A subscription's free trial: nothing was charged yet. */
  trial?: boolean;
}

const KEY_STYLE = new SafeHtml(`<style>
.key{width:100%;min-height:7.5rem;font:.8125rem/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;word-break:break-all;
padding:.6rem .7rem;border:1px solid var(--line);border-radius:8px;background:var(--bg);color:var(--text);resize:vertical}
ol.steps{padding-left:1.25rem;margin:.5rem 0}ol.steps li{margin:.35rem 0}
.steps-title{font-size:1rem;margin:1.5rem 0 .25rem}
</style>`);

/**
 * Copies the key: the Clipboard API where the page is a secure context (https, localhost), else the
 * selection and execCommand; if both fail the key stays selected for Ctrl+C. The button says which.
 */
const COPY_SCRIPT = new SafeHtml(`(() => {
  const button = document.getElementById('copy-key');
  const key = document.getElementById('license-key');
  key.addEventListener('focus', () => key.select());
  button.addEventListener('click', async () => {
    key.select();
    let copied = false;
    try { await navigator.clipboard.writeText(key.value); copied = true; } catch { copied = document.execCommand('copy'); }
    button.textContent = copied ? 'Copied' : 'Press Ctrl+C (or ⌘C) to copy';
  });
})();`);

/**
 * The default success page once the checkout's license exists: the key with a copy button, and how
 * to activate it. Only within the 24 hours after payment during which the checkout status hands
 * the key out too (the session id is its bearer).
 */
export function licensePage(license: IssuedLicenseView, nonce: string): string {
  const until = license.expiresAt === null ? '' : `${new Date(license.expiresAt).toISOString().slice(0, 10)} (UTC)`;
  // A trial charged nothing: saying "payment complete" would not be true.
  const { title, term } = license.trial
    ? { title: 'Free trial started', term: `Nothing was charged. Your free trial runs until ${until}; the first charge is then, unless you cancel before` }
    : { title: 'Payment complete', term: `Your license ${until ? `is valid until ${until}` : 'never expires'}` };
  return layout({
    title,
    script: { nonce, source: COPY_SCRIPT },
    body: html`${KEY_STYLE}<div class="center">${ICONS.check}
<h1>${title}</h1>
<p class="muted">${term}.${license.features.length ? ` Includes: ${license.features.join(', ')}.` : ''}</p></div>
<label for="license-key">Your license key</label>
<textarea id="license-key" class="key" readonly rows="6" spellcheck="false">${license.licenseKey}</textarea>
<button type="button" id="copy-key" class="button primary">Copy license key</button>
<h2 class="steps-title">How to activate it</h2>
<ol class="steps">
<li>Return to the application: it was waiting for this checkout and activates the license by itself.</li>
<li>If it asks for a license key, paste this one.</li>
<li>From a terminal, with the licensing command-line program: <code>licensing activate</code>, then paste the key when it asks.</li>
</ol>
<p class="muted">Keep the key somewhere safe. This page shows it for 24 hours; after that, sign in from the application to get your licenses again.</p>`,
  });
}
