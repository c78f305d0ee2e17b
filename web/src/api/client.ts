// The console's API client: openapi-fetch over the types generated from /openapi.json
// (clients/typescript/src/generated/openapi.ts), same origin. Every call carries the session's
// access token; a 401 token-expired is refreshed and retried once, any other 401 ends the session
// (the app shows sign-in and then the same page). Failures are thrown as ProblemError.
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from '../../../clients/typescript/src/generated/openapi.ts';
import { isNetworkFailure, reportReachable, reportUnreachable } from './network.ts';
import type { components } from '../../../clients/typescript/src/generated/openapi.ts';
import { ProblemError, problemFrom } from './problem.ts';
import { accessToken, forceRefresh, sessionEnded } from './session.ts';

const retried = new WeakSet<Request>();
const copies = new WeakMap<Request, Request>();

const auth: Middleware = {
  async onRequest({ request }) {
    const token = await accessToken();
    if (token) request.headers.set('authorization', `Bearer ${token}`);
    request.headers.set('accept', request.headers.get('accept') ?? 'application/json');
    // Kept to send again after a refresh (a body can be read once).
    copies.set(request, request.clone());
    return request;
  },
  async onResponse({ request, response }) {
    reportReachable();
    if (response.status !== 401) return response;
    const problem = await problemFrom(response.clone());
    const slug = problem.type.split('/').pop();
    const copy = copies.get(request);
    if (slug === 'token-expired' && copy && !retried.has(request)) {
      retried.add(request);
      try {
        const token = await forceRefresh();
        copy.headers.set('authorization', `Bearer ${token}`);
        return await fetch(copy);
      } catch {
        return response;
      }
    }
    sessionEnded(problem.detail || 'Your session has ended. Sign in again.');
    return response;
  },
  onError({ error }) {
    if (isNetworkFailure(error)) reportUnreachable();
  },
};

export const api = createClient<paths>({ baseUrl: '' });
api.use(auth);

/** The data of an openapi-fetch answer, or its problem thrown. */
export async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  if (error && typeof error === 'object' && 'title' in error) throw new ProblemError({ status: response.status, ...(error as object) } as never);
  throw new ProblemError(await problemFrom(response));
}

/** A raw authenticated fetch (uploads with progress use XMLHttpRequest; downloads use this). */
export async function authFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const token = await accessToken();
  const headers = new Headers(init.headers);
  if (token) headers.set('authorization', `Bearer ${token}`);
  const res = await fetch(path, { ...init, headers }).catch((err: unknown) => {
    if (isNetworkFailure(err)) reportUnreachable();
    throw err;
  });
  reportReachable();
  if (res.status === 401) {
    const problem = await problemFrom(res.clone());
    sessionEnded(problem.detail || 'Your session has ended. Sign in again.');
  }
  if (!res.ok) throw new ProblemError(await problemFrom(res));
  return res;
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

/** POST /artifacts with upload progress (fetch has none for request bodies in most browsers): by XMLHttpRequest with the session's token. */
export function uploadArtifact(form: FormData, onProgress: (fraction: number) => void): Promise<components['schemas']['ArtifactResponse']> {
  return accessToken().then(
    (token) =>
      new Promise((resolve, reject) => {
        const xhr = new XMLHttpRequest();
        xhr.open('POST', '/api/v1/artifacts');
        if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
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
          reject(new ProblemError(await problemFrom(res)));
        };
        xhr.send(form);
      }),
  );
}
