import type { Command } from './context.ts';

const GROUPS: Record<string, string> = {
  seller: 'sell licenses: account, payment connection, products, licenses, customers, orders, signing keys',
  'seller products': 'create, list and update products',
  'seller licenses': 'grant, list (find a buyer by e-mail), show, revoke and unbind licenses',
  'seller customers': 'list your customers with their licenses; search by the start of an e-mail',
  'seller orders': 'list your orders: payments and refunds, by product, buyer, status or date',
  'seller api-keys': 'create, list and revoke API keys',
  'seller keys': 'rotate the license signing key (staged; shipped apps follow it)',
};

const GLOBAL_OPTIONS = `Global options:
  --api-url <url>   the API (default $LICENSING_API_URL or http://localhost:3000/v1; /v1 is added if missing)
  --config <file>   the config file (default $LICENSING_CONFIG or $XDG_CONFIG_HOME/licensing/config.json,
                    i.e. ~/.config/licensing/config.json; owner-only, it holds keys and tokens)
  --json            machine output: one JSON document on stdout, nothing else
  -h, --help        help for any command
  --version         the program's version`;

const CHECKING = `Checking a license needs the seller's publishable key and public keys:
  --publishable-key <pk_…> or $LICENSING_PUBLISHABLE_KEY (remembered per seller once given),
  --jwks-url <url> (default: <api-url>/developers/<developer>/jwks.json, where the developer is
  --developer <dev_…> or the one that signed the key).`;

const EXIT_CODES = `Exit codes:
  0  ok
  1  the API refused or something failed (the message says why)
  2  usage error: unknown command or option, missing or malformed value, a revoke or a device
     removal without --yes and without a terminal to ask on
  3  license invalid (activate, status): revoked, expired, bad signature, other machine…
  4  not logged in or not configured (no seller key, no identity token, expired credential)
  5  the API cannot be reached`;

export function topHelp(commands: readonly Command[], version: string): string {
  const width = Math.max(...commands.map((c) => c.path.length));
  const line = (c: Command) => `  ${c.path.padEnd(width)}  ${c.summary}`;
  const buyer = commands.filter((c) => !c.path.startsWith('seller '));
  const seller = commands.filter((c) => c.path.startsWith('seller '));
  return `licensing ${version}: buy, activate and check software licenses; sell them.

Usage: licensing <command> [options]

Buyer commands:
${buyer.map(line).join('\n')}

Seller commands:
${seller.map(line).join('\n')}

${GLOBAL_OPTIONS}

${CHECKING}

${EXIT_CODES}

Run "licensing <command> --help" for a command's options.
`;
}

export function groupNames(): string[] {
  return Object.keys(GROUPS);
}

export function isGroup(words: readonly string[]): boolean {
  return words.join(' ') in GROUPS;
}

export function groupHelp(group: string, commands: readonly Command[]): string {
  const members = commands.filter((c) => c.path.startsWith(`${group} `));
  const width = Math.max(...members.map((c) => c.path.length));
  return `licensing ${group}: ${GROUPS[group]}

Commands:
${members.map((c) => `  ${c.path.padEnd(width)}  ${c.summary}`).join('\n')}

Run "licensing ${group} <command> --help" for a command's options.
`;
}

export function commandHelp(command: Command): string {
  const checks = command.flags.includes('publishable-key') ? `\n${CHECKING}\n` : '';
  const details = command.details ? `\n${command.details.trim()}\n` : '';
  return `licensing ${command.path}: ${command.summary}

Usage: licensing ${command.usage}
${details}${checks}
${GLOBAL_OPTIONS}

${EXIT_CODES}
`;
}
