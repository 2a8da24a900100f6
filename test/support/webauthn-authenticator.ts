/**
 * A software WebAuthn authenticator for tests: an Ed25519 key made with WebCrypto, a `none`
 * attestation CBOR-encoded as a real authenticator's, and assertions signed over authenticator data
 * and the client data hash. The server's library verifies these exactly as a browser's answer.
 */

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const utf8 = (text: string) => new TextEncoder().encode(text);
const sha256 = async (bytes: Uint8Array<ArrayBuffer>) => new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

/** CBOR (RFC 8949), the part WebAuthn needs: integers, byte and text strings, maps. */
function cbor(value: unknown): Uint8Array {
  const head = (major: number, length: number) => {
    if (length < 24) return new Uint8Array([(major << 5) | length]);
    if (length < 256) return new Uint8Array([(major << 5) | 24, length]);
    if (length < 65536) return new Uint8Array([(major << 5) | 25, length >> 8, length & 255]);
    return new Uint8Array([(major << 5) | 26, (length >>> 24) & 255, (length >> 16) & 255, (length >> 8) & 255, length & 255]);
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (value instanceof Uint8Array) return concat(head(2, value.length), value);
  if (typeof value === 'string') return concat(head(3, utf8(value).length), utf8(value));
  if (value instanceof Map) return concat(head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)]));
  throw new Error(`cbor: cannot encode ${typeof value}`);
}

const FLAGS = { userPresent: 0x01, userVerified: 0x04, attested: 0x40 };

export interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}

export interface RequestOptions {
  challenge: string;
  rpId?: string;
}

export class SoftwareAuthenticator {
  /** The signature counter: it goes up by one at each assertion unless a test says otherwise. */
  counter = 0;
  readonly credentialId = crypto.getRandomValues(new Uint8Array(32));
  private userHandle: string | null = null;

  private constructor(private readonly keys: CryptoKeyPair) {}

  static async create(): Promise<SoftwareAuthenticator> {
    return new SoftwareAuthenticator((await crypto.subtle.generateKey({ name: 'Ed25519' }, false, ['sign', 'verify'])) as CryptoKeyPair);
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  private async authData(rpId: string, flags: number, counter: number, attested?: Uint8Array): Promise<Uint8Array> {
    const count = new Uint8Array(4);
    new DataView(count.buffer).setUint32(0, counter);
    return concat(await sha256(utf8(rpId)), new Uint8Array([flags]), count, attested ?? new Uint8Array());
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string): Uint8Array<ArrayBuffer> {
    return utf8(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** navigator.credentials.create: RegistrationResponseJSON for these options, as seen from `origin`. */
  async register(options: CreationOptions, origin: string) {
    this.userHandle = options.user.id;
    const raw = new Uint8Array(await crypto.subtle.exportKey('raw', this.keys.publicKey));
    // COSE_Key: kty OKP (1), alg EdDSA (-8), crv Ed25519 (6), x.
    const coseKey = cbor(new Map<number, unknown>([[1, 1], [3, -8], [-1, 6], [-2, raw]]));
    const idLength = new Uint8Array([this.credentialId.length >> 8, this.credentialId.length & 255]);
    const attested = concat(new Uint8Array(16), idLength, this.credentialId, coseKey);
    const authData = await this.authData(options.rp.id ?? new URL(origin).hostname, FLAGS.userPresent | FLAGS.userVerified | FLAGS.attested, this.counter, attested);
    const attestationObject = cbor(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]));
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: { clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge, origin)), attestationObject: b64url(attestationObject), transports: ['internal'] },
      clientExtensionResults: {},
    };
  }

  /**
   * navigator.credentials.get: AuthenticationResponseJSON. `counter` overrides the next counter;
   * `rpId` the RP id signed over; `forge` signs other bytes than the ones sent (a bad signature);
   * `unverified`: the user was present but not verified (no PIN, no biometric).
   */
  async assert(options: RequestOptions, origin: string, change: { counter?: number; rpId?: string; forge?: boolean; unverified?: boolean } = {}) {
    this.counter = change.counter ?? this.counter + 1;
    const flags = FLAGS.userPresent | (change.unverified ? 0 : FLAGS.userVerified);
    const authData = await this.authData(change.rpId ?? options.rpId ?? new URL(origin).hostname, flags, this.counter);
    const clientData = this.clientData('webauthn.get', options.challenge, origin);
    const signed = concat(authData, await sha256(clientData));
    if (change.forge) signed[0] = signed[0]! ^ 0xff;
    const signature = new Uint8Array(await crypto.subtle.sign({ name: 'Ed25519' }, this.keys.privateKey, signed));
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: { clientDataJSON: b64url(clientData), authenticatorData: b64url(authData), signature: b64url(signature), ...(this.userHandle ? { userHandle: this.userHandle } : {}) },
      clientExtensionResults: {},
    };
  }
}
