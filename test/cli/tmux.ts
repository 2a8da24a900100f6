import { ROOT } from './support.ts';

/** POSIX shell quoting for one word. */
const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

function tmux(socket: string, args: string[]): string {
  const run = Bun.spawnSync(['tmux', '-L', socket, ...args], { stdout: 'pipe', stderr: 'pipe' });
  if (run.exitCode !== 0) throw new Error(`tmux ${args[0]} failed: ${run.stderr.toString()}`);
  return run.stdout.toString();
}

/**
 * The CLI on a real pseudo-terminal: a detached tmux session (on a private server socket) running
 * `bun run src/cli/main.ts …`; the pane stays open after the program ends and shows its exit code.
 */
export function terminalSession(args: readonly string[], env: Record<string, string> = {}) {
  const socket = `licensing-cli-${process.pid}-${crypto.randomUUID().slice(0, 8)}`;
  const assignments = Object.entries({ NO_COLOR: '1', ...env }).map(([k, v]) => `${k}=${quote(v)}`);
  const command = [
    `cd ${quote(ROOT)} &&`,
    'env -u LICENSING_API_URL -u LICENSING_CONFIG -u LICENSING_PUBLISHABLE_KEY',
    ...assignments,
    'bun run src/cli/main.ts',
    ...args.map(quote),
    '; echo "[exit $?]"; sleep 600',
  ].join(' ');
  tmux(socket, ['new-session', '-d', '-s', 't', '-x', '120', '-y', '30', command]);

  const screen = () => tmux(socket, ['capture-pane', '-p', '-J', '-t', 't']);
  return {
    screen,
    /** Waits until the screen matches; fails with the screen if it never does. */
    async waitFor(pattern: RegExp, timeoutMs = 30_000): Promise<string> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const text = screen();
        if (pattern.test(text)) return text;
        if (Date.now() > deadline) throw new Error(`the screen never showed ${pattern}:\n${text}`);
        await Bun.sleep(100);
      }
    },
    /** Types the text and presses Enter. */
    enter(text: string) {
      tmux(socket, ['send-keys', '-t', 't', '-l', text]);
      tmux(socket, ['send-keys', '-t', 't', 'Enter']);
    },
    /** Presses keys by tmux name, e.g. "C-c". */
    press(...keys: string[]) {
      tmux(socket, ['send-keys', '-t', 't', ...keys]);
    },
    close() {
      try {
        tmux(socket, ['kill-server']);
      } catch {}
    },
  };
}
