/**
 * The exact text of bodies the service read itself (chunked requests), kept beside the parsed value:
 * a signature check needs the bytes as sent, never a re-serialization.
 */
const rawBodies = new WeakMap<Request, string>();

export function keepRawBody(request: Request, text: string): void {
  rawBodies.set(request, text);
}

export function rawBodyOf(request: Request, parsed: unknown): string {
  return typeof parsed === 'string' ? parsed : (rawBodies.get(request) ?? '');
}
