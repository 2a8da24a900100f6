import { API_KEY_SCOPES, type ApiKeyScope } from '../domain/developer.ts';
import { isOneOf, orList } from '../domain/vocabulary.ts';
import { positionals } from './args.ts';
import type { Command } from './context.ts';
import { HttpApiError, UsageError } from './errors.ts';
import { fields, table, when } from './output.ts';
import { confirm } from './prompt.ts';
import { requireSeller } from './seller-auth.ts';

interface ApiKeyView {
  id: string;
  scope: ApiKeyScope;
  createdAt: number;
  revokedAt: number | null;
}

const SCOPE_CHOICES = API_KEY_SCOPES.join('|');

const create: Command = {
  path: 'seller api-keys create',
  summary: 'make a secret (sk_…) or publishable (pk_…) key; the key is shown once',
  usage: `seller api-keys create --scope ${SCOPE_CHOICES}`,
  details: `A publishable key may only validate licenses and start checkouts: ship it in your app. A secret key
may do everything: keep it on your servers. Either works at once; the config file keeps the one it has.`,
  flags: ['scope'],
  async run(ctx) {
    const scope = ctx.flags.required('scope', `--scope ${SCOPE_CHOICES}`).trim().toLowerCase();
    if (!isOneOf(API_KEY_SCOPES, scope)) throw new UsageError(`--scope must be ${orList(API_KEY_SCOPES)}, not "${scope}"`);
    const { apiKey } = requireSeller(ctx);
    const made = await ctx.api.request<ApiKeyView & { key: string }>('POST', '/developers/api-keys', { apiKey, body: { scope } });
    ctx.result(made, () => fields([['Key id', made.id], ['Scope', made.scope], ['Key', `${made.key}  (shown once)`]]));
  },
};

const listKeys: Command = {
  path: 'seller api-keys list',
  summary: 'list your API keys, newest first (never the keys themselves)',
  usage: 'seller api-keys list',
  flags: [],
  async run(ctx) {
    const { apiKey } = requireSeller(ctx);
    const keys = await ctx.api.request<{ data: ApiKeyView[] }>('GET', '/developers/api-keys', { apiKey });
    ctx.result(keys, () =>
      table(
        ['ID', 'SCOPE', 'CREATED', 'REVOKED'],
        keys.data.map((k) => [k.id, k.scope, when(k.createdAt), when(k.revokedAt, '-')]),
      ),
    );
  },
};

const revoke: Command = {
  path: 'seller api-keys revoke',
  maxArgs: 1,
  summary: 'revoke an API key (refused from then on)',
  usage: 'seller api-keys revoke <keyId> [--yes]',
  details: `Asks for confirmation on a terminal; --yes (-y) skips the question, and is required without a terminal.
The last active secret key cannot be revoked: make another first. Revoking the key this config file holds
leaves the program without one: "licensing seller login" with another sk_… key on standard input.`,
  flags: ['yes'],
  async run(ctx) {
    const [id] = positionals(ctx.args, ['keyId']);
    const { apiKey } = requireSeller(ctx);
    await confirm(ctx, `Revoke ${id}? Requests with it are refused from now on; this cannot be undone.`);
    const revoked = await ctx.api.request<ApiKeyView>('POST', `/developers/api-keys/${encodeURIComponent(id!)}/revoke`, { apiKey });
    if (revoked.scope === 'secret' && !(await stillWorks(ctx, apiKey))) {
      ctx.note('That was the secret key in your config file: run "licensing seller login" with another sk_… key (typed at the prompt, on standard input, or in LICENSING_SECRET_KEY).');
    }
    ctx.result(revoked, `Revoked ${revoked.id} (${revoked.scope}).`);
  },
};

/** Whether the config file's own secret key is still accepted. */
async function stillWorks(ctx: Parameters<Command['run']>[0], apiKey: string): Promise<boolean> {
  try {
    await ctx.api.request('GET', '/developers/api-keys', { apiKey });
    return true;
  } catch (error) {
    if (error instanceof HttpApiError && error.status === 401) return false;
    throw error;
  }
}

export const sellerApiKeyCommands: Command[] = [create, listKeys, revoke];
