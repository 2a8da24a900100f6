import { html } from './html.ts';
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
} as const;

/** The default successUrl and cancelUrl pages: the application, polling, takes it from here. */
export function resultPage(outcome: 'success' | 'cancel'): string {
  const result = RESULTS[outcome];
  return layout({
    title: result.title,
    body: html`<div class="center">${result.icon}
<h1>${result.title}</h1>
<p class="muted">${result.message}</p></div>`,
  });
}
