// Is the server reachable? (docs/console.md, "Network loss"). A call that fails before any answer
// (fetch's TypeError), or the browser going offline, marks the connection lost: the frame shows a
// banner, and /api/v1/health/live is probed every 2 s until the server answers again. Any answer marks it
// back. Live views keep their own cursors (the events feed's `after`, the Assistant stream's
// Last-Event-ID) and resume from them; this module only tells the user.
import { useSyncExternalStore } from 'react';

const PROBE_MS = 2000;
let online = true;
let probe: ReturnType<typeof setInterval> | null = null;
const listeners = new Set<() => void>();

function set(value: boolean): void {
  if (value === online) return;
  online = value;
  if (!value && !probe)
    probe = setInterval(() => {
      fetch('/api/v1/health/live', { cache: 'no-store' }).then(
        (r) => r.status < 500 && reportReachable(),
        () => undefined,
      );
    }, PROBE_MS);
  if (value && probe) {
    clearInterval(probe);
    probe = null;
  }
  for (const l of listeners) l();
}

/** A call got an answer (any status): the server is reachable. */
export function reportReachable(): void {
  set(true);
}

/** A call failed before any answer. */
export function reportUnreachable(): void {
  set(false);
}

/** True for a failure that never reached the server (fetch rejects with a TypeError; an abort is not one). */
export function isNetworkFailure(err: unknown): boolean {
  return err instanceof TypeError;
}

window.addEventListener('offline', () => set(false));
window.addEventListener('online', () => {
  // The browser's word is a hint: the probe confirms the server answers.
  fetch('/api/v1/health/live', { cache: 'no-store' }).then(
    () => set(true),
    () => undefined,
  );
});

function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** Whether the server is reachable. */
export function useConnection(): { online: boolean } {
  return { online: useSyncExternalStore(subscribe, () => online) };
}
