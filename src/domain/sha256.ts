import { utf8 } from './base64url.ts';

/** Lower-case hex SHA-256 of the UTF-8 text, by WebCrypto: the same in the server, Node, Bun and browsers. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', utf8.encode(text) as BufferSource));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}
