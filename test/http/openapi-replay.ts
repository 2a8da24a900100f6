import { EXAMPLE } from '../../src/adapters/http/examples.ts';

/**
 * Replays the API reference's example requests against a live server, as "Try it out" would: the
 * URL is the document's own `servers` URL joined to the path, the path and query hold the
 * parameters' examples, the body is the operation's example. The examples name ids and codes of
 * nobody (src/adapters/http/examples.ts): each is replaced by the one this replay created, captured
 * from the answers of the operations replayed before it.
 */

export type Operation = {
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, { example?: unknown }> };
  parameters?: { name: string; in: string; example?: unknown }[];
  responses: Record<string, { content?: Record<string, { schema?: { type?: string; required?: string[] } }> }>;
};
export type OpenApi = { servers: { url: string }[]; paths: Record<string, Record<string, Operation>> };

export interface Reply {
  status: number;
  type: string;
  body: any;
  location: string | null;
}

/** The secrets the examples cannot hold: given to an operation as its security scheme asks. */
export interface Credentials {
  secretKey?: string;
  publishableKey?: string;
  identityToken?: string;
}

/** What a step adds to its documented request: state no example can carry (a form, a one-time state). */
export interface Extra {
  query?: Record<string, string>;
  form?: Record<string, string>;
}

export class Replay {
  /** Example placeholder → the real value it stands for. */
  readonly values = new Map<string, string>();
  readonly credentials: Credentials = {};

  constructor(readonly document: OpenApi) {}

  get base(): string {
    return this.document.servers[0]!.url;
  }

  operation(name: string): Operation {
    const [method, path] = name.split(' ') as [string, string];
    const operation = this.document.paths[path]?.[method.toLowerCase()];
    if (!operation) throw new Error(`${name} is not in the document`);
    return operation;
  }

  /** The example, with every placeholder replaced by the value captured for it. */
  real<T>(example: T): T {
    if (typeof example === 'string') return (this.values.get(example) ?? example) as T;
    if (Array.isArray(example)) return example.map((item) => this.real(item)) as T;
    if (example && typeof example === 'object') return Object.fromEntries(Object.entries(example).map(([k, v]) => [k, this.real(v)])) as T;
    return example;
  }

  capture(placeholder: keyof typeof EXAMPLE, value: string): void {
    this.values.set(String(EXAMPLE[placeholder]), value);
  }

  async send(name: string, extra: Extra = {}): Promise<Reply> {
    const [method, path] = name.split(' ') as [string, string];
    const operation = this.operation(name);
    const params = operation.parameters ?? [];
    const filled = path.replace(/\{([^}]+)\}/g, (_, param: string) => {
      const example = params.find((p) => p.in === 'path' && p.name === param)?.example;
      if (typeof example !== 'string') throw new Error(`${name}: no example for {${param}}`);
      return encodeURIComponent(this.real(example));
    });
    const query = new URLSearchParams();
    for (const p of params) if (p.in === 'query' && p.example !== undefined) query.set(p.name, String(this.real(p.example)));
    for (const [key, value] of Object.entries(extra.query ?? {})) query.set(key, value);
    const url = `${this.base}${filled}${query.size > 0 ? `?${query}` : ''}`;
    const response = await fetch(url, { method, headers: this.headers(operation, extra), body: this.body(operation, extra), redirect: 'manual' });
    const type = response.headers.get('content-type') ?? '';
    const text = await response.text();
    return { status: response.status, type, body: type.includes('json') ? JSON.parse(text) : text, location: response.headers.get('location') };
  }

  private headers(operation: Operation, extra: Extra): Record<string, string> {
    const headers: Record<string, string> = {};
    const schemes = new Set((operation.security ?? []).flatMap((s) => Object.keys(s)));
    if (schemes.has('apiKey')) headers['x-api-key'] = this.credentials.secretKey ?? '';
    else if (schemes.has('identityToken')) headers.authorization = `Bearer ${this.credentials.identityToken}`;
    // The examples log in with EXAMPLE.machineFingerprint: the token opens nothing from another device.
    if (schemes.has('deviceFingerprint')) headers['x-device-fingerprint'] = EXAMPLE.machineFingerprint;
    if (extra.form) headers['content-type'] = 'application/x-www-form-urlencoded';
    else if (operation.requestBody?.content['application/json']) headers['content-type'] = 'application/json';
    return headers;
  }

  private body(operation: Operation, extra: Extra): string | undefined {
    if (extra.form) return new URLSearchParams(extra.form).toString();
    const example = operation.requestBody?.content['application/json']?.example;
    return example === undefined ? undefined : JSON.stringify(this.real(example));
  }

  /** The top-level fields the documented answer for this status requires. */
  requiredFields(name: string, status: number): string[] {
    const schema = this.operation(name).responses[String(status)]?.content?.['application/json']?.schema;
    return schema?.type === 'object' ? (schema.required ?? []) : [];
  }
}
