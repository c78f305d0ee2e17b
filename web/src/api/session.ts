// The signed-in session (docs/console.md, "Sign-in"): the access token and the refresh token live
// in this module's memory only, never in localStorage, sessionStorage or a cookie. The access
// token is refreshed shortly before it expires (POST /auth/refresh, JSON body: the refresh token
// never goes in a URL); refresh tokens are single use, so one refresh runs at a time.
import type { components } from '../../../clients/typescript/src/generated/openapi.ts';
import { ProblemError, problemFrom } from './problem.ts';

type TokenResponse = components['schemas']['TokenResponse'];

interface Tokens {
  access: string;
  refresh: string;
  /** ms since the epoch */
  expiresAt: number;
  /** when to refresh: a minute before expiry, or half-way through a lifetime under two minutes */
  refreshAt: number;
}

export interface SessionState {
  email: string | null;
  signedIn: boolean;
  /** Why the last session ended, for the sign-in page (a 401, a failed refresh). */
  endedBecause: string | null;
}

const API = '/api/v1';
/** Refresh this long before the access token expires (less for short lifetimes). */
const REFRESH_MARGIN_MS = 60_000;

let tokens: Tokens | null = null;
let state: SessionState = { email: null, signedIn: false, endedBecause: null };
let refreshing: Promise<string> | null = null;
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

function keep(t: TokenResponse): void {
  // From expires_in (the lifetime in seconds), not expires_at: the browser's clock may differ from the server's.
  const expiresAt = Date.now() + t.expires_in * 1000;
  const margin = Math.min(REFRESH_MARGIN_MS, (t.expires_in * 1000) / 2);
  tokens = { access: t.access_token, refresh: t.refresh_token, expiresAt, refreshAt: expiresAt - margin };
}

export async function signIn(email: string, password: string): Promise<void> {
  const res = await fetch(`${API}/auth/login-email`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ username: email, password }),
  });
  if (!res.ok) throw new ProblemError(await problemFrom(res));
  keep((await res.json()) as TokenResponse);
  set({ email, signedIn: true, endedBecause: null });
}

/** Ends the session here and, when it can, on the server (GET /auth/logout revokes it). */
export async function signOut(): Promise<void> {
  const t = tokens;
  tokens = null;
  set({ email: state.email, signedIn: false, endedBecause: null });
  if (t) await fetch(`${API}/auth/logout`, { headers: { authorization: `Bearer ${t.access}` } }).catch(() => undefined);
}

/** The session is over (a 401 the console cannot recover from): back to sign-in, same page after. */
export function sessionEnded(reason: string): void {
  tokens = null;
  refreshing = null;
  set({ email: state.email, signedIn: false, endedBecause: reason });
}

async function refresh(): Promise<string> {
  const t = tokens;
  if (!t) throw new Error('not signed in');
  const res = await fetch(`${API}/auth/refresh`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ refresh_token: t.refresh }),
  });
  if (!res.ok) {
    const problem = await problemFrom(res);
    // 401 (expired, revoked, reused): the session is gone. Anything else: try again on the next call.
    if (res.status === 401) sessionEnded(problem.detail || 'Your session has ended. Sign in again.');
    throw new ProblemError(problem);
  }
  keep((await res.json()) as TokenResponse);
  return tokens!.access;
}

/** A valid access token: refreshed first when it expires within the margin. */
export async function accessToken(): Promise<string | null> {
  if (!tokens) return null;
  if (Date.now() < tokens.refreshAt) return tokens.access;
  refreshing ??= refresh().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/** Tests and the token-expired answer: refresh now, whatever the clock says. */
export function forceRefresh(): Promise<string> {
  if (tokens) tokens.refreshAt = 0;
  return accessToken().then((t) => t ?? Promise.reject(new Error('not signed in')));
}
