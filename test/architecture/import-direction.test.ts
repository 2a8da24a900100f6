import { describe as group, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ALLOWED, CONSOLE_PACKAGES, describe, importSpecifiers, importViolations } from './import-rules.ts';

const ROOT = join(import.meta.dir, '..', '..');

function sourcesOf(layer: string): string[] {
  const glob = new Bun.Glob('**/*.{ts,tsx,mts,cts,js,mjs}');
  return [...glob.scanSync({ cwd: join(ROOT, 'src', layer) })].map((f) => join('src', layer, f)).sort();
}

group('import direction: domain → domain; ports → domain, ports; app → domain, ports, app', () => {
  for (const layer of Object.keys(ALLOWED)) {
    test(`src/${layer} imports no adapter, framework, driver, package or builtin`, () => {
      const files = sourcesOf(layer);
      expect(files.length).toBeGreaterThan(0);

      const violations = files.flatMap((file) => importViolations(ROOT, file, readFileSync(join(ROOT, file), 'utf8')));

      if (violations.length > 0) throw new Error(`Import direction broken:\n${describe(violations)}`);
      expect(violations).toEqual([]);
    });
  }

  test('the scan is not vacuous: it sees the imports the layers really make', () => {
    const all = Object.keys(ALLOWED).flatMap(sourcesOf).flatMap((f) => importSpecifiers(readFileSync(join(ROOT, f), 'utf8')));
    expect(all).toContain('../../domain/errors.ts');
    expect(all).toContain('../../ports/deps.ts');
  });
});

group('the seller console (src/console) talks HTTP only', () => {
  test(`it imports only itself and ${CONSOLE_PACKAGES.join(', ')}`, () => {
    const files = sourcesOf('console');
    expect(files.length).toBeGreaterThan(0);
    const violations = files.flatMap((file) => importViolations(ROOT, file, readFileSync(join(ROOT, file), 'utf8')));
    if (violations.length > 0) throw new Error(`Import direction broken:\n${describe(violations)}`);
    expect(violations).toEqual([]);
  });

  test('a console file importing the server, a builtin or another package is caught', () => {
    const sample = [
      `import { h } from 'preact';`,
      `import { useState } from 'preact/hooks';`,
      `import 'uplot/dist/uPlot.min.css';`,
      `import { x } from '../domain/license.ts';`,
      `import { y } from '../adapters/http/server.ts';`,
      `import { z } from '../app/licenses/grant-license.ts';`,
      `import { readFileSync } from 'node:fs';`,
      `import { Elysia } from 'elysia';`,
      `import React from 'react';`,
    ].join('\n');
    const violations = importViolations(ROOT, 'src/console/sample.tsx', sample).map((v) => v.specifier);
    expect(violations).toEqual(['../domain/license.ts', '../adapters/http/server.ts', '../app/licenses/grant-license.ts', 'node:fs', 'elysia', 'react']);
  });
});

group('the checker itself catches violations', () => {
  const check = (file: string, source: string) => importViolations(ROOT, file, source).map((v) => v.specifier);

  test('a domain file importing Bun, a builtin, Elysia, drizzle, Stripe, Twilio or any package is caught, naming file and import', () => {
    const sample = [
      `import { Database } from 'bun:sqlite';`,
      `import { $ } from 'bun';`,
      `import { randomBytes } from 'node:crypto';`,
      `import { Elysia } from 'elysia';`,
      `import { eq } from 'drizzle-orm';`,
      `import type Stripe from 'stripe';`,
      `import twilio from 'twilio';`,
      `import { z } from 'zod';`,
    ].join('\n');

    const violations = importViolations(ROOT, 'src/domain/sample.ts', sample);

    expect(violations.map((v) => v.specifier)).toEqual(['bun:sqlite', 'bun', 'node:crypto', 'elysia', 'drizzle-orm', 'stripe', 'twilio', 'zod']);
    expect(describe(violations)).toContain(`src/domain/sample.ts: imports 'elysia'`);
  });

  test('domain importing ports, app or an adapter is caught', () => {
    const sample = `import type { Clock } from '../ports/clock.ts';\nimport { x } from '../app/a.ts';\nimport { y } from '../adapters/http/server.ts';`;
    expect(check('src/domain/sample.ts', sample)).toEqual(['../ports/clock.ts', '../app/a.ts', '../adapters/http/server.ts']);
  });

  test('app importing an adapter, main.ts or config.ts is caught', () => {
    const sample = `import { NodeSigner } from '../../adapters/crypto/node-signer.ts';\nimport { c } from '../../config.ts';\nimport '../../main.ts';`;
    expect(check('src/app/licenses/sample.ts', sample).sort()).toEqual(['../../adapters/crypto/node-signer.ts', '../../config.ts', '../../main.ts']);
  });

  test('ports importing app is caught', () => {
    expect(check('src/ports/sample.ts', `import type { X } from '../app/x.ts';`)).toEqual(['../app/x.ts']);
  });

  test('re-exports, dynamic imports, require, multi-line imports and paths leaving src are caught', () => {
    const sample = [
      `export { sign } from 'node:crypto';`,
      `export * from '../adapters/sqlite/schema.ts';`,
      `const stripe = await import('stripe');`,
      `const fs = require('fs');`,
      `import {\n  a,\n  type B,\n} from 'drizzle-orm/sqlite-core';`,
      `import { s } from '../../../test/support/deps.ts';`,
    ].join('\n');
    expect(check('src/app/sample.ts', sample).sort()).toEqual(
      ['node:crypto', '../adapters/sqlite/schema.ts', 'stripe', 'fs', 'drizzle-orm/sqlite-core', '../../../test/support/deps.ts'].sort(),
    );
  });

  test('a dynamic import with a computed target is caught', () => {
    expect(check('src/domain/sample.ts', 'const m = await import(name);')).toEqual(['import(<expression>)']);
  });

  test('allowed imports and comments that mention packages pass', () => {
    const sample = [
      `/** Unlike import { Elysia } from 'elysia', this file is pure. */`,
      `// import { eq } from 'drizzle-orm';`,
      `import { isExpired } from '../../domain/license.ts';`,
      `import type { Deps } from '../../ports/deps.ts';`,
      `import { issueLicense } from './issue-license.ts';`,
      `export { grantLicense } from '../licenses/grant-license.ts';`,
    ].join('\n');
    expect(importViolations(ROOT, 'src/app/licenses/sample.ts', sample)).toEqual([]);
  });
});
