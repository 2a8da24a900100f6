/** Base64url (RFC 4648 §5, no padding) without Buffer, so the client library runs in browsers too. */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const LOOKUP = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) LOOKUP[ALPHABET.charCodeAt(i)] = i;

type NativeBase64 = { toBase64?: (options: { alphabet: 'base64url'; omitPadding: boolean }) => string };
/** The runtime's own encoder where it has one (Bun, recent browsers): a signed answer encodes three times. */
const NATIVE = typeof (Uint8Array.prototype as NativeBase64).toBase64 === 'function';
const URL_SAFE = { alphabet: 'base64url', omitPadding: true } as const;

export function encodeBase64url(bytes: Uint8Array): string {
  return NATIVE ? (bytes as NativeBase64).toBase64!(URL_SAFE) : encodeBase64urlPortable(bytes);
}

/** The same encoding in plain JavaScript, for runtimes without Uint8Array.prototype.toBase64. */
export function encodeBase64urlPortable(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]!;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]!;
  }
  return out;
}

/** Returns null for anything that is not canonical unpadded base64url. */
export function decodeBase64url(text: string): Uint8Array | null {
  if (text.length % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let bits = 0;
  let value = 0;
  let o = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const v = code < 128 ? LOOKUP[code]! : -1;
    if (v < 0) return null;
    value = (value << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (value >> bits) & 0xff;
    }
  }
  // Leftover bits must be zero, or two strings would decode to the same bytes.
  if ((value & ((1 << bits) - 1)) !== 0) return null;
  return out;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

export const utf8 = {
  encode: (text: string): Uint8Array => encoder.encode(text),
  decode: (bytes: Uint8Array): string | null => {
    try {
      return decoder.decode(bytes);
    } catch {
      return null;
    }
  },
};
