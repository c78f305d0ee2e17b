// Hash routes (#/molecules, #/jobs/<id>): the server serves one index.html at /app/, and a page
// survives a sign-in in between (the hash is never changed by it).
import { useSyncExternalStore } from 'react';

export interface Route {
  page: string;
  rest: string[];
}

function parse(): Route {
  const parts = window.location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  return { page: parts[0] ?? 'molecules', rest: parts.slice(1) };
}

let current = parse();
const listeners = new Set<() => void>();
window.addEventListener('hashchange', () => {
  current = parse();
  for (const l of listeners) l();
});

export function useRoute(): Route {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => current,
  );
}

export function href(...parts: string[]): string {
  return `#/${parts.map(encodeURIComponent).join('/')}`;
}
