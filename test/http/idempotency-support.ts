import type { seller, TestApi } from '../support/http.ts';

export type World = { api: TestApi; s: Awaited<ReturnType<typeof seller>> };

/** The next request's answer is never kept nor its key given back, as if its process died after its write. */
export function dieAfterWrite(w: Pick<World, 'api'>) {
  const keys = w.api.deps.idempotencyKeys;
  const { complete, release } = keys;
  keys.complete = async () => void (keys.complete = complete);
  keys.release = async () => void (keys.release = release);
}

