// The console's API client (docs/console.md, "Sign-in and the session"): the TypeScript SDK's
// Crucible (crucible-client) on the same origin, its session and its typed openapi-fetch client.
// Retries are off: the console shows a failure at once, and a lost connection is the frame's
// banner (network.ts). The console adds to the SDK's client: a 401 token-expired is refreshed and
// the request sent again once, any other 401 ends the session (the app shows sign-in and then the
// same page), and every answer or failure tells network.ts whether the server is reachable.
import { Crucible, ProblemError, type components } from 'crucible-client';
import { isNetworkFailure, reportReachable, reportUnreachable } from './network.ts';

export const crucible = new Crucible({ baseUrl: '', retry: { attempts: 1 } });
/** The SDK's openapi-fetch client: typed, authenticated; answers {data, error, response}. */
export const api = crucible.api;

/** The calls whose 401 means something other than an ended session: a wrong password, a sign-out. */
const NOT_SESSION = new Set(['/api/v1/auth/login-email', '/api/v1/auth/logout']);
const retried = new WeakSet<Request>();
const copies = new WeakMap<Request, Request>();
const endedListeners = new Set<(reason: string) => void>();

/** Called with the problem's detail when a 401 ends the session (session.ts). */
export function onSessionEnded(listener: (reason: string) => void): void {
  endedListeners.add(listener);
}

/** The session is over: back to sign-in with the reason. */
export function sessionEnded(problem: ProblemError): void {
  for (const l of endedListeners) l(problem.detail || 'Your session has ended. Sign in again.');
}

/** The problem of a failed answer (its body read from a copy). */
export async function problemOf(response: Response): Promise<ProblemError> {
  const text = await response.clone().text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the SDK describes it
  }
  return ProblemError.fromResponse(response, body);
}

api.use({
  onRequest({ request }) {
    request.headers.set('accept', request.headers.get('accept') ?? 'application/json');
    // Kept to send again after a refresh (a body can be read once).
    copies.set(request, request.clone());
    return request;
  },
  async onResponse({ request, response, schemaPath }) {
    reportReachable();
    if (response.status !== 401 || NOT_SESSION.has(schemaPath)) return response;
    const problem = await problemOf(response);
    const copy = copies.get(request);
    if (problem.slug === 'token-expired' && copy && !retried.has(request) && schemaPath !== '/api/v1/auth/refresh') {
      retried.add(request);
      try {
        await crucible.refresh();
        for (const [name, value] of Object.entries(await crucible.authHeaders())) copy.headers.set(name, value);
        return await fetch(copy);
      } catch {
        return response;
      }
    }
    sessionEnded(problem);
    return response;
  },
  onError({ error }) {
    if (isNetworkFailure(error)) reportUnreachable();
  },
});

/** The data of an openapi-fetch answer, or its problem thrown (the SDK's ProblemError). */
export async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  throw ProblemError.fromResponse(response, error);
}

/** A raw authenticated fetch (downloads, the run graph as SVG): the session's headers, the same 401 and network handling. */
export async function authFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  for (const [name, value] of Object.entries(await crucible.authHeaders())) headers.set(name, value);
  const res = await fetch(path, { ...init, headers }).catch((err: unknown) => {
    if (isNetworkFailure(err)) reportUnreachable();
    throw err;
  });
  reportReachable();
  if (res.ok) return res;
  const problem = await problemOf(res);
  if (res.status === 401) sessionEnded(problem);
  throw problem;
}

/** Downloads an authenticated file (the browser cannot send the bearer token on a plain link): saved under the server's file name. */
export async function saveDownload(path: string, fallbackName: string): Promise<void> {
  const res = await authFetch(path);
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** POST /artifacts with upload progress (fetch has none for request bodies in most browsers): by XMLHttpRequest with the session's headers. */
export async function uploadArtifact(form: FormData, onProgress: (fraction: number) => void): Promise<components['schemas']['ArtifactResponse']> {
  const auth = await crucible.authHeaders();
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/v1/artifacts');
    for (const [name, value] of Object.entries(auth)) xhr.setRequestHeader(name, value);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onerror = () => {
      reportUnreachable();
      reject(new TypeError('network'));
    };
    xhr.onload = async () => {
      reportReachable();
      if (xhr.status >= 200 && xhr.status < 300) return resolve(JSON.parse(xhr.responseText) as components['schemas']['ArtifactResponse']);
      const res = new Response(xhr.responseText, { status: xhr.status, headers: { 'content-type': xhr.getResponseHeader('content-type') ?? '' } });
      reject(await problemOf(res));
    };
    xhr.send(form);
  });
}

/**
 * Waits with one of the SDK's waits (`crucible.waitForJob`, `waitForRun`: the events feed's long
 * poll, docs/events.md) until the job or run ends, asking again after a failure: a lost connection
 * is the frame's banner (network.ts), any other problem goes to `onProblem`. The wait reads the
 * feed from its start, so one asked again after the connection came back misses nothing. Answers
 * what the wait answers, or null once `signal` aborts.
 */
export async function untilEnded<T>(wait: () => Promise<T>, signal: AbortSignal, onProblem: (err: unknown) => void): Promise<T | null> {
  while (!signal.aborted) {
    try {
      return await wait();
    } catch (err) {
      if (signal.aborted) break;
      if (!isNetworkFailure(err)) onProblem(err);
      await new Promise((r) => setTimeout(r, 3000));
    }
  }
  return null;
}
