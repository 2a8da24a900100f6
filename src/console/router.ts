import { useEffect, useState } from 'preact/hooks';
import { BASE } from './api.ts';

/** History routing under the console's prefix: `/licenses/lic_1` is `${BASE}/licenses/lic_1`. */

type Listener = (path: string) => void;
const listeners = new Set<Listener>();

export function currentPath(): string {
  const path = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : '/';
  return path.replace(/\/+$/, '') || '/';
}

export function href(path: string): string {
  return path === '/' ? BASE : `${BASE}${path}`;
}

export function navigate(path: string, options: { replace?: boolean } = {}): void {
  if (options.replace) history.replaceState(null, '', href(path));
  else history.pushState(null, '', href(path));
  for (const listener of listeners) listener(currentPath());
}

addEventListener('popstate', () => {
  for (const listener of listeners) listener(currentPath());
});

export function usePath(): string {
  const [path, setPath] = useState(currentPath());
  useEffect(() => {
    listeners.add(setPath);
    return () => void listeners.delete(setPath);
  }, []);
  return path;
}
