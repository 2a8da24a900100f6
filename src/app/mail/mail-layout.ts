import { html, type SafeHtml } from '../../domain/html.ts';
import type { MailMessage } from '../../ports/mailer.ts';

/**
 * Every mail's HTML part: one column, system fonts, no images, no tracking, no remote anything; the
 * text part carries the same content for clients that show only text.
 */
export function mailMessage(options: { to: string; subject: string; text: string; body: SafeHtml; id?: string }): MailMessage {
  const page = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${options.subject}</title></head>
<body style="margin:0;padding:24px;background:#ffffff;color:#1a1a1a;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;font-size:16px;line-height:1.5">
<main style="max-width:560px;margin:0 auto">${options.body}</main>
</body></html>`;
  return { to: options.to, subject: options.subject, text: options.text, html: page.value, ...(options.id ? { id: options.id } : {}) };
}

/** A one-time code by e-mail (sign-in, purchase confirmation, a trial's start): the code alone is the secret. */
export function codeMail(options: { to: string; service: string; purpose: string; code: string; minutes: number }): MailMessage {
  const { to, service, purpose, code, minutes } = options;
  const subject = `Your ${service} ${purpose} code: ${code}`;
  const text = `Your ${service} ${purpose} code is ${code}.\n\nIt expires in ${minutes} minutes. Never share it: nobody from ${service} will ask for it.\nIf you did not ask for it, ignore this mail.\n`;
  const body = html`<p>Your ${service} ${purpose} code is</p>
<p style="font-family:ui-monospace,Menlo,Consolas,monospace;font-size:28px;font-weight:700;letter-spacing:4px;margin:8px 0 16px">${code}</p>
<p>It expires in ${minutes} minutes. Never share it: nobody from ${service} will ask for it.</p>
<p style="color:#555555">If you did not ask for it, ignore this mail.</p>`;
  return mailMessage({ to, subject, text, body });
}
