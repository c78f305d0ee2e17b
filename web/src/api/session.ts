// The signed-in session (docs/console.md, "Sign-in and the session"): the SDK's login session (crucible-client;
// its README, "Signing in") held by the console's client (client.ts). The tokens live in that
// object's private fields only, never in localStorage, sessionStorage or a cookie; the SDK
// refreshes the access token shortly before it expires and one refresh runs at a time. This
// module keeps what the frame shows: who is signed in, and why the last session ended.
import { crucible, onSessionEnded } from './client.ts';

export interface SessionState {
  email: string | null;
  signedIn: boolean;
  /** Why the last session ended, for the sign-in page (a 401, a failed refresh). */
  endedBecause: string | null;
}

let state: SessionState = { email: null, signedIn: false, endedBecause: null };
const listeners = new Set<() => void>();

function set(next: SessionState): void {
  state = next;
  for (const l of listeners) l();
}

export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function sessionState(): SessionState {
  return state;
}

export async function signIn(email: string, password: string): Promise<void> {
  await crucible.login(email, password);
  set({ email, signedIn: true, endedBecause: null });
}

/** Ends the session here and, when it can, on the server (GET /auth/logout revokes it). */
export async function signOut(): Promise<void> {
  set({ email: state.email, signedIn: false, endedBecause: null });
  await crucible.logout().catch(() => undefined);
}

// A 401 the console cannot recover from: back to sign-in, the same page after.
onSessionEnded((reason) => set({ email: state.email, signedIn: false, endedBecause: reason }));
