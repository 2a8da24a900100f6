import { machineFingerprint, type CustomerLicense } from '../client/index.ts';
import type { LicenseView as License } from '../domain/license.ts';
import { requireBuyer, sessionFor, signInExpired } from './buyer-common.ts';
import type { BuyerLicense } from './config.ts';
import type { Command, Context } from './context.ts';
import { HttpApiError, toCliError, UsageError } from './errors.ts';
import { list, table, when } from './output.ts';
import { ask, pipedLine, valueOf } from './prompt.ts';

interface PendingLogin {
  email: string;
  otpId: string;
}

/** A code sent by a non-interactive `login` that ended before the code was known (step one of two). */
type WithPending = { pendingLogin?: PendingLogin };

function licensesTable(licenses: readonly BuyerLicense[]): string {
  if (licenses.length === 0) return 'No licenses yet: licensing buy <productId> --browser';
  return table(
    ['PRODUCT', 'PRODUCT ID', 'LICENSE', 'STATUS', 'EXPIRES', 'FEATURES'],
    licenses.map((l) => [l.productName ?? '-', l.productId, l.id, l.status, when(l.expiresAt), list(l.features)]),
  );
}

const toStored = (l: CustomerLicense): BuyerLicense => ({
  id: l.id,
  productId: l.productId,
  productName: l.productName,
  status: l.status,
  features: l.features,
  issuedAt: l.issuedAt,
  expiresAt: l.expiresAt,
  licenseKey: l.licenseKey,
});

/** The code: --otp, else a prompt (again after a wrong one), else a piped line; undefined = ask later. */
async function codeFrom(ctx: Context, attempt: number): Promise<string | undefined> {
  if (attempt === 0 && ctx.flags.string('otp')) return ctx.flags.string('otp')!.trim();
  if (ctx.interactive) return ask('Code from the e-mail or text message: ');
  return attempt === 0 ? pipedLine() : undefined;
}

const login: Command = {
  path: 'login',
  summary: 'log in as a buyer with the code sent to your e-mail (or texted to your confirmed phone)',
  usage: 'login [--email <email>] [--otp <code> [--otp-id <id>]]',
  details: `On a terminal it asks for the e-mail, then for the code (again if it is wrong).
Without one, the code is read from stdin if something is piped; if nothing is, the code is sent and
the command ends (exit 0) telling how to finish: licensing login --email <email> --otp-id <id> --otp <code>
(--otp alone finishes the last login started with this config file).`,
  flags: ['email', 'otp', 'otp-id'],
  async run(ctx) {
    const config = ctx.config as typeof ctx.config & WithPending;
    const pending = config.pendingLogin;
    const email = ctx.flags.string('email')?.trim() || (ctx.flags.has('otp') ? pending?.email : undefined) || (await valueOf(ctx, 'email', 'E-mail: '));
    let otpId = ctx.flags.string('otp-id') ?? (ctx.flags.has('otp') && pending?.email === email ? pending.otpId : undefined);
    if (ctx.flags.has('otp') && !otpId) throw new UsageError('--otp needs --otp-id, or a code sent by an earlier "licensing login --email …"');
    const client = sessionFor(ctx);
    if (!otpId) {
      const sent = await client.loginInit(email);
      otpId = sent.otpId;
      ctx.note(`A code was sent to ${email}, or by text to your confirmed phone (${sent.phoneMasked}) if you have one (valid ${Math.round(sent.expiresIn / 60)} minutes).`);
      config.pendingLogin = { email, otpId };
      ctx.save();
    }
    for (let attempt = 0; ; attempt++) {
      const otp = await codeFrom(ctx, attempt);
      if (!otp) {
        ctx.result(
          { loggedIn: false, email, otpId, next: `licensing login --email ${email} --otp-id ${otpId} --otp <code>` },
          `Then run: licensing login --email ${email} --otp-id ${otpId} --otp <code>`,
        );
        return;
      }
      try {
        const verified = await client.loginVerify({ email, otpId, otp });
        config.buyer = { email, identityToken: verified.identityToken, licenses: verified.licenses.map(toStored) };
        delete config.pendingLogin;
        ctx.save();
        ctx.result({ loggedIn: true, email, licenses: config.buyer.licenses }, () => `Logged in as ${email}.\n${licensesTable(config.buyer!.licenses)}`);
        return;
      } catch (error) {
        const failure = toCliError(error, ctx.apiUrl);
        if (!(ctx.interactive && failure instanceof HttpApiError && failure.code === 'otp_invalid' && attempt < 4)) throw failure;
        ctx.note('That code is not right; try again.');
      }
    }
  },
};

/** What the buyer's listing reads of GET /licenses/:id. */
type LicenseView = Pick<License, 'id' | 'status' | 'expiresAt' | 'features'>;

const licenses: Command = {
  path: 'licenses',
  summary: 'list your licenses (as of login, with their current status)',
  usage: 'licenses',
  flags: [],
  async run(ctx) {
    const buyer = requireBuyer(ctx);
    // The token opens nothing without the device it was issued to: the one login computed, this machine's.
    const deviceFingerprint = await machineFingerprint();
    const fresh = await Promise.all(
      buyer.licenses.map(async (stored) => {
        try {
          const now = await ctx.api.request<LicenseView>('GET', `/licenses/${encodeURIComponent(stored.id)}`, { bearer: buyer.identityToken, deviceFingerprint });
          return { ...stored, status: now.status, expiresAt: now.expiresAt, features: now.features };
        } catch (error) {
          if (error instanceof HttpApiError && error.status === 404) return stored;
          throw error instanceof HttpApiError && error.status === 401 ? signInExpired() : error;
        }
      }),
    );
    buyer.licenses = fresh;
    ctx.save();
    ctx.result({ email: buyer.email, data: fresh }, () => licensesTable(fresh));
  },
};

const logout: Command = {
  path: 'logout',
  summary: 'log out: revokes the identity token and forgets it',
  usage: 'logout',
  flags: [],
  async run(ctx) {
    const buyer = ctx.config.buyer;
    if (!buyer) {
      ctx.result({ loggedOut: true }, 'Not logged in.');
      return;
    }
    const client = sessionFor(ctx);
    client.setIdentityToken(buyer.identityToken);
    await client.logout();
    delete ctx.config.buyer;
    ctx.save();
    ctx.result({ loggedOut: true }, `Logged out ${buyer.email}.`);
  },
};

export const buyerSessionCommands: Command[] = [login, licenses, logout];
