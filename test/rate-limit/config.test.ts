import { describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { spawnService } from '../support/server-process.ts';

describe('VALIDATE_RATE_LIMIT_PER_MINUTE and REDIS_URL', () => {
  test('unset: 600 validations a minute per license, counted without Redis', () => {
    const config = loadConfig({});

    expect(config.validateRateLimitPerMinute).toBe(600);
    expect(config.redisUrl).toBeNull();
  });

  test('a whole number sets the limit, and 0 turns it off', () => {
    expect(loadConfig({ VALIDATE_RATE_LIMIT_PER_MINUTE: '120' }).validateRateLimitPerMinute).toBe(120);
    expect(loadConfig({ VALIDATE_RATE_LIMIT_PER_MINUTE: '0' }).validateRateLimitPerMinute).toBe(0);
  });

  test.each(['-1', '1.5', 'lots', '1e3', '9999999999'])('VALIDATE_RATE_LIMIT_PER_MINUTE=%s is refused, naming the variable', (value) => {
    expect(() => loadConfig({ VALIDATE_RATE_LIMIT_PER_MINUTE: value })).toThrow(ConfigError);
    expect(() => loadConfig({ VALIDATE_RATE_LIMIT_PER_MINUTE: value })).toThrow(/^VALIDATE_RATE_LIMIT_PER_MINUTE /);
  });

  test.each(['redis://127.0.0.1:6379', 'rediss://user:pw@cache.internal:6380/2', 'valkey://127.0.0.1'])('REDIS_URL=%s is taken as is', (value) => {
    expect(loadConfig({ REDIS_URL: value }).redisUrl).toBe(value);
  });

  test.each(['127.0.0.1:6379', 'http://127.0.0.1:6379', 'redis//x'])('REDIS_URL=%s is refused, naming the variable', (value) => {
    expect(() => loadConfig({ REDIS_URL: value })).toThrow(/^REDIS_URL must be a redis:\/\//);
  });

  test('a refused REDIS_URL is not echoed back: it may hold a password', () => {
    const refusal = (() => {
      try {
        loadConfig({ REDIS_URL: 'http://:hunter2@cache:6379' });
      } catch (error) {
        return (error as Error).message;
      }
    })();

    expect(refusal).toContain('REDIS_URL');
    expect(refusal).not.toContain('hunter2');
  });
});

/** Starts the real service with `env` on a throw-away SQLite file and waits for it to exit on its own. */
async function startUp(env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'licensing-rl-'));
  try {
    const service = await spawnService({ DATABASE_URL: `sqlite:${join(dir, 'x.db')}`, MASTER_KEY: '', ...env }, { cwd: dir, inheritEnv: false });
    const guard = setTimeout(() => service.kill('SIGKILL'), 20_000); // came up anyway: fail on the exit code, not a hang
    const code = await service.exited;
    clearTimeout(guard);
    return { code, printed: service.output().split('\n').filter((l) => l.trim() !== '') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('start-up', () => {
  test('a bad VALIDATE_RATE_LIMIT_PER_MINUTE stops start-up with one line naming it', async () => {
    const { code, printed } = await startUp({ VALIDATE_RATE_LIMIT_PER_MINUTE: 'lots' });

    expect(code).not.toBe(0);
    expect(printed).toEqual([expect.stringContaining('VALIDATE_RATE_LIMIT_PER_MINUTE')]);
  });

  test('a REDIS_URL where no Redis answers stops start-up with one line naming it, and no password', async () => {
    const { code, printed } = await startUp({ REDIS_URL: 'redis://:hunter2@127.0.0.1:1' });

    expect(code).not.toBe(0);
    expect(printed).toEqual([expect.stringContaining('REDIS_URL')]);
    expect(printed.join('\n')).not.toContain('hunter2');
  });
});
