/**
 * A local stand-in for api.twilio.com's Messages API that the official SDK talks to (through
 * TWILIO_API_BASE): POST /2010-04-01/Accounts/:sid/Messages.json with form-encoded To, From, Body
 * and Basic auth. Answers and errors are shaped like Twilio's own.
 */

export const FAKE_ACCOUNT_SID = `AC${'0f'.repeat(16)}`;
export const FAKE_AUTH_TOKEN = 'fake_twilio_auth_token_5f3a9c';

export interface SentMessage {
  to: string;
  from: string;
  body: string;
  /** The account sid the Authorization header carried. */
  authSid: string;
}

export interface TwilioRequest {
  method: string;
  path: string;
  /** The Host header: where the SDK believed it was sending the request. */
  host: string;
  authorization: string;
}

const MESSAGES_PATH = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/;
/** Twilio accepts E.164; anything else is its error 21211. */
const E164 = /^\+[1-9]\d{6,14}$/;

const twilioError = (status: number, code: number, message: string) =>
  Response.json({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }, { status });

function basicAuth(header: string): { sid: string; token: string } | null {
  const match = /^Basic (.+)$/.exec(header);
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? null : { sid: decoded.slice(0, colon), token: decoded.slice(colon + 1) };
}

export function startFakeTwilio(options: { accountSid?: string; authToken?: string } = {}) {
  const accountSid = options.accountSid ?? FAKE_ACCOUNT_SID;
  const authToken = options.authToken ?? FAKE_AUTH_TOKEN;
  const messages: SentMessage[] = [];
  const requests: TwilioRequest[] = [];
  const failures: number[] = [];

  async function route(request: Request, recorded: TwilioRequest): Promise<Response> {
    const failure = failures.shift();
    if (failure !== undefined) return twilioError(failure, 20500, 'An internal server error has occurred.');
    const match = MESSAGES_PATH.exec(recorded.path);
    if (request.method !== 'POST' || !match) return twilioError(404, 20404, 'The requested resource was not found.');
    const auth = basicAuth(recorded.authorization);
    if (!auth || auth.sid !== accountSid || auth.token !== authToken || match[1] !== accountSid) {
      return twilioError(401, 20003, 'Authenticate');
    }
    const form = new URLSearchParams(await request.text());
    const [to, from, body] = [form.get('To') ?? '', form.get('From') ?? '', form.get('Body') ?? ''];
    if (!E164.test(to)) return twilioError(400, 21211, `The 'To' number ${to} is not a valid phone number.`);
    if (!body) return twilioError(400, 21602, 'Message body is required.');
    messages.push({ to, from, body, authSid: auth.sid });
    const sid = `SM${crypto.randomUUID().replaceAll('-', '')}`;
    return Response.json(
      { sid, account_sid: accountSid, to, from, body, status: 'queued', direction: 'outbound-api', num_segments: '1', api_version: '2010-04-01', uri: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}.json` },
      { status: 201 },
    );
  }

  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      const recorded: TwilioRequest = {
        method: request.method,
        path: new URL(request.url).pathname,
        host: request.headers.get('host') ?? '',
        authorization: request.headers.get('authorization') ?? '',
      };
      requests.push(recorded);
      return route(request, recorded);
    },
  });

  return {
    url: `http://127.0.0.1:${server.port}`,
    accountSid,
    authToken,
    /** Messages Twilio accepted, oldest first. */
    messages,
    /** Every request that arrived, accepted or not. */
    requests,
    /** The next request answers `status` with a Twilio error body. */
    failNext(status: number) {
      failures.push(status);
    },
    stop: () => server.stop(true),
  };
}

export type FakeTwilio = ReturnType<typeof startFakeTwilio>;
