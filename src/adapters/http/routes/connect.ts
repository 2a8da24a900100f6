import { Elysia, t } from 'elysia';
import { completeConnect, connectStatus, startConnect } from '../../../app/connect/connect-account.ts';
import type { Deps } from '../../../ports/deps.ts';
import { SECURITY, withSecretKey } from '../auth.ts';
import { connectedPage } from '../pages/connect-pages.ts';
import { htmlResponse } from '../pages/html.ts';
import { errorsOf, htmlPage, Input, jsonErrors } from '../schemas.ts';

const ConnectStatusResponse = t.Object({ connected: t.Boolean(), accountId: t.Optional(t.String()) });

const ConnectStartResponse = t.Object({ url: t.String({ description: 'Open it in a browser to authorize the connection (valid 10 minutes, once).' }) });

const ConnectCallbackQuery = Input({
  code: t.Optional(t.String({ maxLength: 512 })),
  state: t.Optional(t.String({ maxLength: 512 })),
  error: t.Optional(t.String({ maxLength: 200 })),
  error_description: t.Optional(t.String({ maxLength: 1000 })),
});

const tags = ['Connect'];

export function connectRoutes(deps: Deps) {
  return new Elysia({ name: 'connect' })
    .get(
      '/connect/callback',
      async ({ query }) => {
        const { accountId } = await completeConnect(deps, query);
        return htmlResponse(connectedPage({ accountId }));
      },
      {
        query: ConnectCallbackQuery,
        detail: {
          responses: {
            200: htmlPage('The "connected" page.'),
            ...jsonErrors(400, 502),
          },
          tags,
          summary: 'OAuth callback (browser)',
          description: 'Where the processor sends the seller back. The state is single-use, bound to the developer who started, and expires in 10 minutes. Answers an HTML page. Errors are JSON 400, or an HTML page with the same status when the client asks for text/html (a browser).',
          security: SECURITY.none,
        },
      },
    )
    .use(
      withSecretKey(deps)
        .get('/connect/status', ({ caller }) => connectStatus(deps, caller.developerId), {
          response: { 200: ConnectStatusResponse, ...errorsOf(401, 403) },
          detail: { tags, summary: 'Is a payment account connected?', security: SECURITY.secret },
        })
        .post('/connect/start', ({ caller }) => startConnect(deps, caller.developerId), {
          response: { 200: ConnectStartResponse, ...errorsOf(400, 401, 403, 413) },
          detail: { tags, summary: 'Start connecting a payment account', description: 'Returns the authorize URL to open in a browser.', security: SECURITY.secret },
        }),
    );
}
