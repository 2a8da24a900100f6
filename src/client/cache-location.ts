/**
 * Where each OS keeps per-application data: $XDG_DATA_HOME (or ~/.local/share) on Linux and
 * other Unixes, ~/Library/Application Support on macOS, %APPDATA% on Windows.
 */
export function defaultCacheDir(input: {
  appName: string;
  platform: string;
  home: string;
  env: Record<string, string | undefined>;
  join: (...parts: string[]) => string;
}): string {
  const { appName, platform, home, env, join } = input;
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', appName);
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), appName);
  // The XDG spec says a relative $XDG_DATA_HOME is invalid and must be ignored.
  const xdg = env.XDG_DATA_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(home, '.local', 'share');
  return join(base, appName);
}

function isAbsolute(path: string): boolean {
  return path.startsWith('/');
}

/** App names become folder names: nothing that could climb out of the data folder. */
export function safeAppName(appName: string): string {
  const cleaned = appName.trim().replace(/[\\/:*?"<>|\u0000-\u001f]/g, '-');
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'licensing-app' : cleaned;
}
