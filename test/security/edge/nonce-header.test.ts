import { afterAll, beforeAll, expect, test } from 'bun:test';
import { connect } from 'node:net';
import { startServer, type RunningServer } from '../../support/server-process.ts';

/**
 * A NUL in the Licensing-Nonce header (docs/signed-answers.md) never reaches the application: Bun's
 * HTTP parser refuses the request line by line with a bare 400. Anything else malformed is the
 * route's JSON 400 (test/http/signed-answers.test.ts).
 */
let server: RunningServer;
let port: number;

beforeAll(async () => {
  server = await startServer({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'info' });
  port = Number(new URL(server.url).port);
});

afterAll(async () => {
  await server?.stop();
});

function raw(nonce: string): Promise<string> {
  const body = JSON.stringify({ licenseKey: 'x', machineFingerprint: 'y' });
  const head = `POST /v1/licenses/validate HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\nx-api-key: pk_unknown\r\nlicensing-nonce: ${nonce}`;
  return new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`${head}\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`));
    let received = '';
    socket.on('data', (chunk) => (received += chunk));
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
  });
}

test('a NUL in Licensing-Nonce is a 400, and the server goes on answering', async () => {
  expect(await raw('abcdefgh\u0000ijklmnopqrst')).toStartWith('HTTP/1.1 400');
  // A well-formed nonce with an unknown key reaches the route: 401 as JSON.
  expect(await raw('abcdefghijklmnopqrst')).toStartWith('HTTP/1.1 401');
});
