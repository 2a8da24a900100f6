import type { StartedTrial } from '../client/index.ts';
import { activateBought, activationLine } from './activation.ts';
import { positionals } from './args.ts';
import { clientFor, productNameOf, requirePublishableKey, sellerOf } from './buyer-common.ts';
import type { Command, Context } from './context.ts';
import { HttpApiError, toCliError, UsageError } from './errors.ts';
import { machineName } from './machine-name.ts';
import { fields, list, when } from './output.ts';
import { ask, pipedLine, valueOf } from './prompt.ts';

interface PendingTrial {
  trialRequestId: string;
  email: string;
}

/** A trial whose code was e-mailed by a non-interactive `trial` that ended before the code was known. */
type WithPending = { pendingTrials?: Record<string, PendingTrial> };

/** The code: --otp, else a prompt (again after a wrong one), else a piped line; undefined = finish later. */
async function codeFrom(ctx: Context, attempt: number): Promise<string | undefined> {
  if (attempt === 0 && ctx.flags.string('otp')) return ctx.flags.string('otp')!.trim();
  if (ctx.interactive) return (await ask('Code from the e-mail: ')) || undefined;
  return attempt === 0 ? pipedLine() : undefined;
}

async function startTrial(ctx: Context, productId: string): Promise<void> {
  const config = ctx.config as typeof ctx.config & WithPending;
  const key = requirePublishableKey(ctx, sellerOf(ctx, productId));
  const client = clientFor(ctx, productId, { publishableKey: key });
  let pending = ctx.flags.has('otp') ? config.pendingTrials?.[productId] : undefined;
  if (ctx.flags.has('otp') && !pending) throw new UsageError(`no trial of ${productId} is waiting for a code: run "licensing trial ${productId} --email <email>" first`);
  if (!pending) {
    const email = await valueOf(ctx, 'email', 'E-mail: ');
    const name = machineName(ctx);
    const asked = await client.requestTrial({ productId, email, ...(name ? { name } : {}) });
    if ('started' in asked) return keepTrial(ctx, asked.started);
    ctx.note(`A code was e-mailed to ${email}. It expires in ${Math.round(asked.expiresIn / 60)} minutes.`);
    pending = { trialRequestId: asked.trialRequestId, email };
    config.pendingTrials = { ...config.pendingTrials, [productId]: pending };
    ctx.save();
  }
  for (let attempt = 0; ; attempt++) {
    const otp = await codeFrom(ctx, attempt);
    if (!otp) {
      ctx.result({ started: false, productId, trialRequestId: pending.trialRequestId, next: `licensing trial ${productId} --otp <code>` }, `Then run: licensing trial ${productId} --otp <code>`);
      return;
    }
    try {
      const started = await client.confirmTrial({ productId, trialRequestId: pending.trialRequestId, otp });
      delete config.pendingTrials![productId];
      return keepTrial(ctx, started);
    } catch (error) {
      const failure = toCliError(error, ctx.apiUrl);
      // A request that can no longer start anything is forgotten: the next run asks for a new code.
      if (failure instanceof HttpApiError && ['otp_expired', 'otp_attempts_exceeded', 'conflict', 'not_found'].includes(failure.code)) {
        delete config.pendingTrials![productId];
        ctx.save();
      }
      if (!(ctx.interactive && failure instanceof HttpApiError && failure.code === 'otp_invalid' && attempt < 4)) throw failure;
      ctx.note('That code is not right; try again.');
    }
  }
}

/** The trial's key is kept and checked online once, as a bought one is (the trial already activated this machine). */
async function keepTrial(ctx: Context, started: StartedTrial): Promise<void> {
  ctx.save();
  const { license, licenseKey } = started;
  const name = productNameOf(ctx, license.productId);
  const activation = await activateBought(ctx, licenseKey, name);
  ctx.result({ ...started, started: true, activated: activation.activated, ...(activation.activated ? {} : { notActivated: activation.why }) }, () =>
    [
      `Started the free trial of ${name ?? license.productId}. ${activationLine(activation, license.productId)}`,
      fields([
        ['License', license.id],
        ['Features', list(license.features)],
        ['Trial ends', when(license.expiresAt)],
        ['License key', ''],
      ]),
      licenseKey,
    ].join('\n'),
  );
}

const trial: Command = {
  path: 'trial',
  maxArgs: 1,
  summary: 'start a product’s free trial on this machine (with a code e-mailed to you)',
  usage: 'trial <productId> [--email <email>] [--otp <code>] [--name <machine name>] [--publishable-key <pk_…>]',
  details: `Asks the service for the product's trial for your e-mail (asked on a terminal when --email is not
given); a code is e-mailed to you, and typing it starts the trial on this machine (asked again after a
wrong one). Without a terminal the code comes from stdin when piped; if nothing is, the command ends after
the mail is sent (exit 0) and "licensing trial <productId> --otp <code>" finishes it. Needs the seller's
publishable key. The trial's key is kept and checked like a bought one; buying the product later
converts the trial and "licensing status" swaps its key for the paid one.`,
  flags: ['email', 'otp', 'name', 'publishable-key'],
  async run(ctx) {
    const [productId] = positionals(ctx.args, ['productId']);
    return startTrial(ctx, productId!);
  },
};

export const buyerTrialCommands: Command[] = [trial];
