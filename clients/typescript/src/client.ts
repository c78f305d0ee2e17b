// The client (README): openapi-fetch over the generated types, with the credential added to
// every request, an Idempotency-Key on the writes that take one, retries driven by the
// problem's `retry` hint (retry.ts), and failures thrown as ProblemError. `get`, `post`, `put`,
// `patch` and `delete` take the path as the API document names it and answer the success body;
// `api` is the openapi-fetch client underneath (credentials and keys, but no retries and no
// throwing: it answers {data, error, response}).
import createClient, { type Client, type ClientPathsWithMethod, type MaybeOptionalInit, type MethodResponse } from 'openapi-fetch';
import type { RequiredKeysOf } from 'openapi-typescript-helpers';
import { ProblemError } from './errors.js';
import type { components, paths } from './generated/openapi.js';
import { IDEMPOTENT_OPERATIONS } from './generated/operations.js';
import { artifacts, assistantSessions, assistantTurns, events, inferenceRequests, jobs, papers, utilityRequests, workflowRuns, workflows } from './pages.js';
import { DEFAULT_RETRY, decide, sleep, type RetryOptions } from './retry.js';
import { Credentials, type TokenResponse } from './session.js';
import { streamTurn, type StreamOptions } from './stream.js';
import { waitForJob, waitForRun, type WaitOptions } from './waits.js';

export type Api = Client<paths>;
export type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';
export type PathOf<M extends Method> = ClientPathsWithMethod<Api, M>;
export type InitOf<M extends Method, P extends PathOf<M>> = MaybeOptionalInit<paths[P], M>;
/** The init argument: optional when the operation needs no parameter and no body. */
export type Args<I> = RequiredKeysOf<I> extends never ? [(I & { [key: string]: unknown })?] : [I & { [key: string]: unknown }];
/** The success body of an operation (with `parseAs`, what it asks for). */
export type Data<M extends Method, P extends PathOf<M>, I = object> = MethodResponse<Api, M, P, I>;

type Schemas = components['schemas'];

export interface CrucibleOptions {
  /** The server's origin, e.g. `http://127.0.0.1:8000` (paths carry `/api/v1`). */
  baseUrl: string;
  /** Authenticate with an API key (`crk_...`), sent as X-Api-Key. */
  apiKey?: string;
  /** Authenticate with an access token obtained elsewhere (not refreshed). */
  accessToken?: string;
  /** Retry policy; `{ attempts: 1 }` turns retries off. */
  retry?: Partial<RetryOptions>;
  /** The fetch to use (default: the global one). */
  fetch?: (input: Request) => Promise<Response>;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
}

export interface DownloadOptions {
  /** One record's primary file instead of the whole zip. */
  record?: string;
  /** With `record`, the record's port; alone, that port. */
  port?: string;
  /** Bytes from `start` to `end` (inclusive; to the end when absent): answered 206. */
  range?: { start: number; end?: number };
  signal?: AbortSignal;
}

export interface UploadOptions {
  file: Blob;
  /** The file's name (a File's own name when absent): its extension tells `molecules` uploads how to parse it. */
  filename?: string;
  mode: 'file' | 'molecules' | 'archive';
  name?: string;
  data_kind?: string;
  data_format?: string;
  /** Your own key; one is made otherwise. Either way every retry sends the same one. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/**
 * A fresh Idempotency-Key: a random UUID (version 4). Made with crypto.getRandomValues, which
 * every browser page has, where crypto.randomUUID needs a secure context (https or localhost).
 */
export function idempotencyKey(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Paths sent without the credential (they take none). */
const UNAUTHENTICATED = new Set(['/api/v1/auth/login-email', '/api/v1/auth/refresh']);
const IDEMPOTENT = new Set(IDEMPOTENT_OPERATIONS);

export class Crucible {
  /** The openapi-fetch client underneath: typed, authenticated, keyed; no retries, no throwing. */
  readonly api: Api;
  readonly baseUrl: string;
  readonly retryOptions: RetryOptions;
  readonly #credentials: Credentials;

  constructor(options: CrucibleOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.retryOptions = { ...DEFAULT_RETRY, ...(options.retry ?? {}) };
    this.#credentials = new Credentials(async (refresh_token) => (await this.send('post', '/api/v1/auth/refresh', { body: { refresh_token } })).data as TokenResponse);
    if (options.apiKey) this.#credentials.useApiKey(options.apiKey);
    else if (options.accessToken) this.#credentials.useAccessToken(options.accessToken);
    this.api = createClient<paths>({
      baseUrl: this.baseUrl,
      // Comma-separated lists (`status=queued,running`): the document's `style: form, explode: false`.
      querySerializer: { array: { style: 'form', explode: false } },
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.headers ? { headers: options.headers } : {}),
    });
    this.api.use({
      onRequest: async ({ request, schemaPath }) => {
        if (UNAUTHENTICATED.has(schemaPath)) return undefined;
        for (const [name, value] of Object.entries(await this.#credentials.headers())) if (!request.headers.has(name)) request.headers.set(name, value);
        return request;
      },
    });
  }

  /** A client logged in with email and password (POST /auth/login-email). */
  static async login(options: Omit<CrucibleOptions, 'apiKey' | 'accessToken'> & { email: string; password: string }): Promise<Crucible> {
    const client = new Crucible(options);
    await client.login(options.email, options.password);
    return client;
  }

  /** Logs in: the access token is refreshed from then on as needed; the refresh token stays in this object. */
  async login(email: string, password: string): Promise<{ expires_in: number; expires_at: number }> {
    const { data } = await this.send('post', '/api/v1/auth/login-email', {
      body: { username: email, password },
      bodySerializer: (body: Record<string, string>) => new URLSearchParams(body).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    const pair = data as TokenResponse;
    this.#credentials.useTokens(pair);
    return { expires_in: pair.expires_in, expires_at: pair.expires_at };
  }

  /** Exchanges the refresh token for a new pair now (it is done by itself before expiry). */
  refresh(): Promise<void> {
    return this.#credentials.refresh();
  }

  /** Ends the session (GET /auth/logout) and forgets the tokens, even when the call fails. */
  async logout(): Promise<string> {
    try {
      return (await this.get('/api/v1/auth/logout')).message;
    } finally {
      this.#credentials.clear();
    }
  }

  /**
   * The headers that authenticate a request now (the access token refreshed first when it is
   * about to expire), for a request the client does not send itself: an upload by
   * XMLHttpRequest to follow its progress in a browser, a stream read with fetch.
   */
  authHeaders(): Promise<Record<string, string>> {
    return this.#credentials.headers();
  }

  /** The credential in use. */
  get credential(): 'api-key' | 'session' | 'access-token' | 'none' {
    return this.#credentials.kind;
  }

  get<P extends PathOf<'get'>, I extends InitOf<'get', P>>(url: P, ...init: Args<I>): Promise<Data<'get', P, I>> {
    return this.send('get', url, init[0]).then((r) => r.data as Data<'get', P, I>);
  }

  post<P extends PathOf<'post'>, I extends InitOf<'post', P>>(url: P, ...init: Args<I>): Promise<Data<'post', P, I>> {
    return this.send('post', url, init[0]).then((r) => r.data as Data<'post', P, I>);
  }

  put<P extends PathOf<'put'>, I extends InitOf<'put', P>>(url: P, ...init: Args<I>): Promise<Data<'put', P, I>> {
    return this.send('put', url, init[0]).then((r) => r.data as Data<'put', P, I>);
  }

  patch<P extends PathOf<'patch'>, I extends InitOf<'patch', P>>(url: P, ...init: Args<I>): Promise<Data<'patch', P, I>> {
    return this.send('patch', url, init[0]).then((r) => r.data as Data<'patch', P, I>);
  }

  delete<P extends PathOf<'delete'>, I extends InitOf<'delete', P>>(url: P, ...init: Args<I>): Promise<Data<'delete', P, I>> {
    return this.send('delete', url, init[0]).then((r) => r.data as Data<'delete', P, I>);
  }

  /**
   * One operation with retries: an Idempotency-Key made once (unless given) and sent on every
   * attempt of an operation that takes one, the retry hint of each failure weighed (retry.ts).
   * Answers the success body and the response; throws ProblemError (or what fetch threw).
   */
  private async send(method: Method, url: string, init: object | undefined): Promise<{ data: unknown; response: Response }> {
    const options: Record<string, unknown> = { ...(init ?? {}) };
    const keyed = IDEMPOTENT.has(`${method.toUpperCase()} ${url}`);
    if (keyed) {
      const given = (options.params as { header?: Record<string, unknown> } | undefined)?.header?.['idempotency-key'];
      if (given === undefined) options.headers = { ...(options.headers as Record<string, string> | undefined), 'Idempotency-Key': idempotencyKey() };
    }
    const safe = method === 'get' || keyed;
    const signal = (options.signal as AbortSignal | undefined) ?? null;
    const canRefresh = !UNAUTHENTICATED.has(url);
    let refreshed = false;
    for (let attempt = 1; ; attempt++) {
      const sentWith = this.#credentials.accessToken;
      let failure: unknown;
      try {
        const r = await (this.api.request as (m: string, u: string, i: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>)(method, url, options);
        if (r.response.ok) return { data: r.data, response: r.response };
        failure = ProblemError.fromResponse(r.response, r.error);
      } catch (err) {
        failure = err;
      }
      const next = decide(failure, attempt, this.retryOptions, safe, canRefresh && !refreshed && this.#credentials.canRefresh);
      if (!next.retry) throw failure;
      if (next.refresh) {
        refreshed = true;
        await this.#credentials.refresh(sentWith);
      } else await sleep(next.delayMs, signal);
    }
  }

  /** Waits for a job to end, on the events feed's long poll; answers its status (docs/events.md). */
  waitForJob(processId: string, options: WaitOptions = {}): Promise<Schemas['JobStatusResponse']> {
    return waitForJob(this, processId, options);
  }

  /** Waits for a workflow run to end, on the events feed's long poll; answers the run. */
  waitForRun(runId: string, options: WaitOptions = {}): Promise<Schemas['WorkflowRun']> {
    return waitForRun(this, runId, options);
  }

  /** The events of an Assistant turn as they come, resuming with Last-Event-ID after a dropped connection. */
  streamTurn(sessionId: string, turnId: string, options: StreamOptions = {}): AsyncGenerator<Schemas['AssistantStreamEvent'], void, undefined> {
    return streamTurn(this, sessionId, turnId, options);
  }

  /** Uploads a file as an artifact (POST /artifacts, multipart). */
  upload(options: UploadOptions): Promise<Schemas['ArtifactResponse']> {
    const { file, filename, mode, name, data_kind, data_format, idempotencyKey, signal } = options;
    return this.post('/api/v1/artifacts', {
      body: { file, mode, ...(name !== undefined && { name }), ...(data_kind !== undefined && { data_kind }), ...(data_format !== undefined && { data_format }) },
      bodySerializer: (body: Record<string, unknown>) => {
        const form = new FormData();
        // The fields before the file: the server reads the parts in order.
        for (const [k, v] of Object.entries(body)) if (k !== 'file' && typeof v === 'string') form.append(k, v);
        form.append('file', file, filename ?? (file instanceof File ? file.name : 'upload'));
        return form;
      },
      ...(idempotencyKey !== undefined && { params: { header: { 'idempotency-key': idempotencyKey } } }),
      ...(signal && { signal }),
    });
  }

  /** Downloads an artifact (the zip, a record's file or a port): the response, its body unread. */
  async download(artifactId: string, options: DownloadOptions = {}): Promise<Response> {
    const { record, port, range, signal } = options;
    const { response } = await this.send('get', '/api/v1/artifacts/{artifact_id}/download', {
      params: {
        path: { artifact_id: artifactId },
        query: { ...(record !== undefined && { record }), ...(port !== undefined && { port }) },
        ...(range && { header: { range: `bytes=${range.start}-${range.end ?? ''}` } }),
      },
      parseAs: 'stream',
      ...(signal && { signal }),
    });
    return response;
  }

  /** Pagination: every item of a list, page after page (`limit` sets the page size). */
  readonly pages = {
    jobs: jobs.bind(null, this),
    artifacts: artifacts.bind(null, this),
    workflows: workflows.bind(null, this),
    workflowRuns: workflowRuns.bind(null, this),
    papers: papers.bind(null, this),
    utilityRequests: utilityRequests.bind(null, this),
    inferenceRequests: inferenceRequests.bind(null, this),
    assistantSessions: assistantSessions.bind(null, this),
    assistantTurns: assistantTurns.bind(null, this),
    events: events.bind(null, this),
  };
}
