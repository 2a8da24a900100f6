import fc from 'fast-check';
import type { Reply } from '../support/http.ts';
import { ownerHeaders, type Route, type World } from '../http/fixtures.ts';
import { authPlan, bodyOf, bodyPlan, contentType, extraHeaders, idPlan, queryString, type AuthPlan, type BodyPlan, type IdPlan } from './arbitraries.ts';

/** A route of the fuzz: the route table's, or a sandbox page that takes a form. */
export type FuzzRoute = Route & { takesForm?: boolean };

/** One generated request, as a plan: credentials, ids and valid bodies are filled in from the world at send time. */
export interface Attempt {
  auth: AuthPlan;
  id: IdPlan;
  query: string;
  body: BodyPlan;
  contentType?: string;
  headers: Record<string, string>;
}

export function attempts(route: FuzzRoute, fields: string[]): fc.Arbitrary<Attempt> {
  const known = [...new Set([...Object.keys(route.body?.() ?? {}), ...fields])];
  return fc.record({
    auth: authPlan,
    id: route.hasIdParam ? idPlan : fc.constant<IdPlan>({ kind: 'own' }),
    query: queryString,
    body: route.method === 'GET' ? fc.constant<BodyPlan>({ kind: 'none' }) : bodyPlan(known),
    contentType,
    headers: extraHeaders,
  });
}

/** The sandbox's own pages (not in the route table): the payment page, its Pay and Cancel, Connect's authorize page. */
export function sandboxPages(w: World): FuzzRoute[] {
  const page = (id = w.sessionId) => `/sandbox/checkout/${id}`;
  return [
    { name: 'GET /sandbox/checkout/:sessionId', method: 'GET', path: page, auth: 'none', hasIdParam: true },
    {
      name: 'POST /sandbox/checkout/:sessionId/pay', method: 'POST', path: (id) => `${page(id)}/pay`, auth: 'none', hasIdParam: true, takesForm: true,
      body: () => ({ email: 'fuzz.buyer@example.com', phone: '+15550001111', cardNumber: '4242 4242 4242 4242' }),
    },
    { name: 'POST /sandbox/checkout/:sessionId/cancel', method: 'POST', path: (id) => `${page(id)}/cancel`, auth: 'none', hasIdParam: true },
    {
      name: 'GET /sandbox/connect/authorize', method: 'GET', auth: 'none',
      path: () => `/sandbox/connect/authorize?${new URLSearchParams({ state: 'fuzz', redirect_uri: 'http://127.0.0.1:3000/v1/connect/callback' })}`,
    },
  ];
}

function authHeaders(w: World, route: Route, auth: AuthPlan): Record<string, string> {
  switch (auth.kind) {
    case 'owner':
      return ownerHeaders(w, route);
    case 'none':
      return {};
    case 'publishable':
      return { 'x-api-key': w.mine.publishableKey };
    case 'other-secret':
      return { 'x-api-key': w.other.apiKey };
    case 'secret-as-bearer':
      return { authorization: `Bearer ${w.mine.apiKey}` };
    case 'junk-key':
      return { 'x-api-key': auth.junk };
    case 'junk-bearer':
      return { authorization: `Bearer ${auth.junk}` };
    case 'junk-authorization':
      return { authorization: auth.junk };
    case 'owner-and-junk-bearer':
      return { ...ownerHeaders(w, route), authorization: `Bearer ${auth.junk}` };
  }
}

function pathOf(w: World, route: Route, attempt: Attempt): string {
  const ids = [w.mine.product.id, w.other.product.id, w.license.id, w.sessionId, w.mine.id, w.other.id, w.customer.purchase.purchaseId];
  const id = attempt.id.kind === 'own' ? undefined : attempt.id.kind === 'world' ? ids[attempt.id.pick % ids.length] : attempt.id.segment;
  const path = route.path(id);
  if (!attempt.query) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${attempt.query}`;
}

/** Sends the attempt through app.handle; also returns what was sent, for the failure report. */
export async function send(w: World, route: FuzzRoute, attempt: Attempt): Promise<{ reply: Reply; sent: string; declaredLength: number }> {
  const body = route.method === 'GET' ? {} : bodyOf(attempt.body, route.body?.(), route.takesForm);
  const headers: Record<string, string> = { ...attempt.headers, ...authHeaders(w, route, attempt.auth) };
  const type = attempt.contentType ?? body.type;
  if (type !== undefined) headers['content-type'] = type;
  const path = pathOf(w, route, attempt);
  const reply = await w.api.call(route.method, path, { headers, rawBody: body.text });
  const shown = body.text && body.text.length > 300 ? `${body.text.slice(0, 300)}… (${body.text.length} chars)` : body.text;
  const declaredLength = Number(headers['content-length'] ?? 0) || 0;
  return { reply, declaredLength, sent: `${route.method} ${path.slice(0, 300)} ${JSON.stringify(headers).slice(0, 500)} ${shown ?? '(no body)'}` };
}
