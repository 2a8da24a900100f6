import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Jwks } from '../client/index.ts';
import { CliError } from './errors.ts';

export interface SellerConfig {
  apiKey: string;
  developerId?: string;
  publishableKey?: string;
  email?: string;
}

export interface BuyerLicense {
  id: string;
  productId: string;
  productName?: string;
  status: string;
  features: string[];
  issuedAt: number;
  expiresAt: number | null;
  licenseKey: string;
}

export interface BuyerConfig {
  email: string;
  identityToken: string;
  licenses: BuyerLicense[];
}

/** A license key activated on this machine, with what checking it needs. */
export interface ActivatedLicense {
  licenseKey: string;
  developerId: string;
  /** Its product's name, when known (a purchase, a login, the checkout status). */
  productName?: string;
  /** Written by earlier versions; now kept per seller in `publishableKeys` (still read). */
  publishableKey?: string;
  /** The seller's JWKS as last fetched: lets `status` verify offline when the API is unreachable. */
  jwks?: Jwks;
}

export interface CliConfig {
  seller?: SellerConfig;
  buyer?: BuyerConfig;
  /** By product id. */
  licenses?: Record<string, ActivatedLicense>;
  /** Sellers' publishable keys by developer id: one key serves every product of its seller. */
  publishableKeys?: Record<string, string>;
}

/**
 * `--config`, else `LICENSING_CONFIG`, else the user's config dir: `$XDG_CONFIG_HOME/licensing`
 * (default `~/.config/licensing`; `%APPDATA%\licensing` on Windows).
 */
export function configPath(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (flag) return flag;
  if (env.LICENSING_CONFIG) return env.LICENSING_CONFIG;
  const base = process.platform === 'win32' && env.APPDATA ? env.APPDATA : env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'licensing', 'config.json');
}

export function loadConfig(path: string): CliConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return {};
    throw new CliError(`cannot read the config file ${path}: ${(error as Error).message}`, 'config_unreadable');
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as CliConfig;
  } catch {}
  throw new CliError(`the config file ${path} is not a JSON object; fix or delete it`, 'config_invalid');
}

/** A fresh, unguessable name for the temporary file beside the config file. */
const randomTempName = () => `.config.${process.pid}.${randomBytes(9).toString('base64url')}.tmp`;

/**
 * Atomically, readable by the owner only (it holds secrets): the text goes into a temporary file in
 * the same folder that this call creates itself (O_CREAT|O_EXCL, mode 0600), so nothing planted there
 * (a file, or a symlink to somewhere else) is ever opened or followed; then rename() puts it in place
 * of the config file, replacing a symlink at that path rather than writing through it.
 */
export function saveConfig(path: string, config: CliConfig, tempName: () => string = randomTempName): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const text = `${JSON.stringify(config, null, 2)}\n`;
  for (let attempt = 0; attempt < 3; attempt++) {
    const tmp = join(dir, tempName());
    let fd: number;
    try {
      fd = openSync(tmp, 'wx', 0o600);
    } catch (error) {
      if ((error as { code?: string }).code === 'EEXIST') continue; // someone else's file: never touched, another name
      throw new CliError(`cannot write the config file ${path}: ${(error as Error).message}`, 'config_unwritable');
    }
    try {
      writeSync(fd, text);
      fsyncSync(fd);
      closeSync(fd);
      renameSync(tmp, path);
      return;
    } catch (error) {
      try {
        closeSync(fd);
      } catch {}
      try {
        unlinkSync(tmp);
      } catch {}
      throw new CliError(`cannot write the config file ${path}: ${(error as Error).message}`, 'config_unwritable');
    }
  }
  throw new CliError(`cannot write the config file ${path}: its temporary file's name was taken three times; check who writes in ${dir}`, 'config_unwritable');
}

/** Where the client library keeps its license cache for one product, beside the config file. */
export function cacheDirFor(path: string, productId: string): string {
  return join(dirname(path), 'cache', productId.replace(/[^A-Za-z0-9_-]/g, '_'));
}
