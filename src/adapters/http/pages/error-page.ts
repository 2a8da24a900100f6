import { failureOf, type Failure } from '../errors.ts';
import { html, htmlResponse, type SafeHtml } from './html.ts';
import { ICONS, layout } from './layout.ts';
import { askForAddress } from './mail-page.ts';
import { askForPhone } from './outbox-page.ts';

export interface ErrorPageContent {
  title: string;
  message: string;
  /** Where a person goes next (a form, a command to run). */
  next?: SafeHtml;
  sandbox?: boolean;
}

export function errorPage(content: ErrorPageContent): string {
  return layout({
    title: content.title,
    sandbox: content.sandbox,
    body: html`<div class="center">${ICONS.cross}
<h1>${content.title}</h1>
<p class="muted">${content.message}</p></div>
${content.next ?? ''}`,
  });
}

/** A browser says so in Accept; API clients (curl, fetch: `*\/*`, or application/json) get JSON. */
export function wantsHtml(request: Request): boolean {
  return /(^|,)\s*(text\/html|application\/xhtml\+xml)\s*(;|,|$)/i.test(request.headers.get('accept') ?? '');
}

const checkoutPage = (failure: Failure): ErrorPageContent =>
  failure.status === 404
    ? { title: 'Checkout not found', message: 'This checkout link is not known here. Return to the application and start the purchase again.', sandbox: true }
    : { title: 'This page cannot be shown', message: failure.message, sandbox: true };

const outboxPage = (failure: Failure): ErrorPageContent => ({
  title: 'Which phone?',
  message: failure.status === 400 ? 'Enter the phone number the texts were sent to, e.g. +15551234567.' : failure.message,
  next: askForPhone(),
  sandbox: true,
});

const mailPage = (failure: Failure): ErrorPageContent => ({
  title: 'Which address?',
  message: failure.status === 400 ? 'Enter the e-mail address the mail was sent to, e.g. ada@example.com.' : failure.message,
  next: askForAddress(),
  sandbox: true,
});

const connectPage = (failure: Failure): ErrorPageContent => ({
  title: 'Not connected',
  message: failure.message,
  next: html`<p class="muted center">Start again with <code>licensing seller connect</code>, or with <code>POST /v1/connect/start</code> and your secret key.</p>`,
});

/**
 * The routes a person reaches in a browser (links, redirects, form posts), by route pattern, and
 * what their failures say there. Elysia runs the application's error handler before any route's own,
 * so the one handler asks this table first.
 */
const BROWSER_ROUTES: Record<string, (failure: Failure) => ErrorPageContent> = {
  '/v1/sandbox/checkout/:sessionId': checkoutPage,
  '/v1/sandbox/checkout/:sessionId/pay': checkoutPage,
  '/v1/sandbox/checkout/:sessionId/cancel': checkoutPage,
  '/v1/sandbox/connect/authorize': (failure) => ({ title: 'This page cannot be shown', message: failure.message, sandbox: true }),
  '/v1/sandbox/outbox/view': outboxPage,
  '/v1/sandbox/mail/view': mailPage,
  '/v1/connect/callback': connectPage,
};

/**
 * The failure of a browser route as a page with the JSON error's status, when the client asks for
 * HTML; undefined otherwise (API clients keep the JSON contract; unexpected errors stay with the
 * JSON handler, which logs them).
 */
export function browserErrorResponse(route: string, code: string | number, error: unknown, request: Request): Response | undefined {
  const pageFor = Object.hasOwn(BROWSER_ROUTES, route) ? BROWSER_ROUTES[route] : undefined;
  if (!pageFor || !wantsHtml(request)) return undefined;
  const failure = failureOf(code, error);
  return failure ? htmlResponse(errorPage(pageFor(failure)), failure.status) : undefined;
}
