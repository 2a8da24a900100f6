import { html, SafeHtml } from './html.ts';

/** One stylesheet for every page: inline (no outside assets), system fonts, readable on a phone. */
const STYLE = `
:root{color-scheme:light dark;--bg:#f3f4f6;--card:#fff;--text:#111827;--muted:#4b5563;--line:#d1d5db;
--accent:#4338ca;--accent-text:#fff;--focus:#2563eb;--ok:#047857;--ok-bg:#ecfdf5;--err:#991b1b;--err-bg:#fef2f2;--err-line:#fecaca;
--note-bg:#fffbeb;--note-line:#fde68a;--note-text:#78350f}
@media (prefers-color-scheme:dark){:root{--bg:#0f1115;--card:#1a1d23;--text:#f3f4f6;--muted:#a1a7b3;--line:#3a404b;
--accent:#818cf8;--accent-text:#0f1115;--focus:#93c5fd;--ok:#34d399;--ok-bg:#0f2a22;--err:#fca5a5;--err-bg:#2a1414;--err-line:#7f1d1d;
--note-bg:#2a2410;--note-line:#6b5a1a;--note-text:#fde68a}}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;min-height:100vh;background:var(--bg);color:var(--text);line-height:1.5;
font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans",sans-serif;
display:flex;align-items:flex-start;justify-content:center;padding:6vh 1rem 2rem}
main{width:100%;max-width:28rem;background:var(--card);border-radius:14px;padding:2rem;
box-shadow:0 1px 2px rgba(0,0,0,.06),0 8px 24px rgba(0,0,0,.08)}
h1{font-size:1.375rem;line-height:1.3;margin:0 0 .25rem}
p{margin:.5rem 0}
.muted{color:var(--muted)}
.badge{display:inline-block;font-size:.75rem;font-weight:700;letter-spacing:.06em;text-transform:uppercase;
padding:.15rem .5rem;border-radius:999px;background:var(--note-bg);color:var(--note-text);border:1px solid var(--note-line);margin-bottom:1rem}
.price{font-size:2.25rem;font-weight:700;letter-spacing:-.02em;margin:.25rem 0 1.25rem}
label{display:block;font-weight:600;margin:1rem 0 .35rem}
.hint{display:block;font-weight:400;font-size:.875rem;color:var(--muted)}
input{width:100%;font:inherit;font-size:1rem;padding:.7rem .8rem;border:1px solid var(--line);border-radius:8px;
background:var(--card);color:var(--text)}
input[aria-invalid=true]{border-color:var(--err);border-width:2px}
.button{display:block;width:100%;text-align:center;font:inherit;font-weight:600;font-size:1rem;padding:.8rem 1rem;
border-radius:8px;border:1px solid transparent;cursor:pointer;text-decoration:none;margin-top:.75rem}
.primary{background:var(--accent);color:var(--accent-text);margin-top:1.5rem}
.primary:hover{filter:brightness(1.1)}
.secondary{background:transparent;color:var(--text);border-color:var(--line)}
.secondary:hover{background:var(--bg)}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
input:focus-visible{outline-offset:0}
.alert{border:1px solid var(--err-line);background:var(--err-bg);color:var(--err);border-radius:8px;padding:.75rem 1rem;margin:1rem 0}
.note{background:var(--note-bg);border:1px solid var(--note-line);color:var(--note-text);border-radius:8px;
padding:.75rem 1rem;margin-top:1.5rem;font-size:.875rem}
.note code{font-size:.85em;white-space:nowrap}
.icon{width:3rem;height:3rem;margin-bottom:.75rem}
.ok{color:var(--ok)}
.center{text-align:center}
ul{padding-left:1.25rem;margin:.5rem 0}
.terms{margin:-.75rem 0 1.25rem}
@media (max-width:30rem){body{padding:0}main{border-radius:0;min-height:100vh;box-shadow:none;padding:1.5rem 1.25rem}}
`;
const STYLE_SHEET = new SafeHtml(STYLE);

/**
 * A whole document around one card. `script`: the page's one inline script, run only because its
 * response's CSP names the same nonce (htmlResponse's `scriptNonce`).
 */
export function layout(options: { title: string; body: SafeHtml; sandbox?: boolean; script?: { nonce: string; source: SafeHtml } }): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${options.title}</title>
<style>${STYLE_SHEET}</style>
</head>
<body>
<main>
${options.sandbox ? html`<span class="badge">Sandbox</span>` : ''}
${options.body}
</main>
${options.script ? html`<script nonce="${options.script.nonce}">${options.script.source}</script>` : ''}
</body>
</html>`.value;
}

/** Inline icons (no image requests); decorative, so hidden from screen readers. */
export const ICONS = {
  check: html`<svg class="icon ok" viewBox="0 0 48 48" aria-hidden="true" focusable="false"><circle cx="24" cy="24" r="22" fill="none" stroke="currentColor" stroke-width="3"/><path d="M14 25l7 7 13-15" fill="none" stroke="currentColor" stroke-width="3.5" stroke-linecap="round" stroke-linejoin="round"/></svg>`,
  cross: html`<svg class="icon muted" viewBox="0 0 48 48" aria-hidden="true" focusable="false"><circle cx="24" cy="24" r="22" fill="none" stroke="currentColor" stroke-width="3"/><path d="M17 17l14 14M31 17L17 31" fill="none" stroke="currentColor" stroke-width="3.5" stroke-linecap="round"/></svg>`,
  clock: html`<svg class="icon muted" viewBox="0 0 48 48" aria-hidden="true" focusable="false"><circle cx="24" cy="24" r="22" fill="none" stroke="currentColor" stroke-width="3"/><path d="M24 12v13l8 5" fill="none" stroke="currentColor" stroke-width="3.5" stroke-linecap="round" stroke-linejoin="round"/></svg>`,
};
