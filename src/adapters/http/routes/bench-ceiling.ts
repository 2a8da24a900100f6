import { Elysia } from 'elysia';
import { ValidateBody } from './licenses/schemas.ts';

const CONSTANT = { valid: true } as const;

/**
 * The benchmark's ceiling: a POST through the same server, body validated against the same schema
 * as /licenses/validate, answering a constant. Mounted only with LICENSING_BENCH_CEILING=1.
 */
export function benchCeilingRoute() {
  return new Elysia({ name: 'bench-ceiling' }).post('/bench/ceiling', () => CONSTANT, { body: ValidateBody, detail: { hide: true } });
}
