/**
 * A real SMTP server for tests (the smtp-server package) on 127.0.0.1, whose messages are parsed
 * with a real MIME parser (mailparser): what a buyer's mail client would see.
 */
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  headers: ParsedMail['headers'];
  raw: string;
}

export interface SmtpSink {
  /** smtp://user:pass@127.0.0.1:<port> */
  url: string;
  received: ReceivedMail[];
  /** Mail to this address, oldest first. */
  to(address: string): ReceivedMail[];
  /** Waits until `count` mails reached `address` (or `timeoutMs` passed: then fails with what arrived). */
  waitFor(address: string, count?: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  /** The next sends are refused after their data with `code` (451: a relay that cannot take mail now), `times` of them. */
  refuseNext(times: number, code?: number): void;
  close(): Promise<void>;
}

/** On a free port, or on `port` (a relay coming back where it was). */
export async function startSmtpSink(options: { port?: number } = {}): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  let refusals = 0;
  let refusalCode = 451;
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    logger: false,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', async () => {
        if (refusals > 0) {
          refusals--;
          const error = Object.assign(new Error(refusalCode < 500 ? 'try again later' : 'message refused'), { responseCode: refusalCode });
          return callback(error);
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        const parsed = await simpleParser(raw);
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          subject: parsed.subject ?? '',
          text: parsed.text ?? '',
          html: typeof parsed.html === 'string' ? parsed.html : '',
          messageId: parsed.messageId ?? '',
          headers: parsed.headers,
          raw,
        });
        callback();
      });
    },
  });
  // A client that hangs up mid-session (a killed server process, a test's abandoned transport) is
  // that client's business: without a listener smtp-server would throw it into whichever test runs.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  const to = (address: string) => received.filter((m) => m.to.includes(address.toLowerCase()));
  return {
    url: `smtp://sink:secret@127.0.0.1:${port}`,
    received,
    to,
    async waitFor(address, count = 1, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (to(address).length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} mail(s) to ${address}, got ${to(address).length}: ${JSON.stringify(received.map((m) => [m.to, m.subject]))}`);
        await Bun.sleep(25);
      }
      return to(address);
    },
    refuseNext(times, code = 451) {
      refusals = times;
      refusalCode = code;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
