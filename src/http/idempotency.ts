// Idempotency-Key handling, stored in the database so it holds across instances.
// preHandler: claim the key (or replay / refuse); onSend: pin the response (5xx is not pinned).
// A route that writes in a transaction may pin its response in that same transaction
// through `request.idempotency.saveInTx`, so a crash cannot separate the work from the record.
// The claim is a short lease under an owner token, renewed while the request runs: a retry
// after the owning process died takes over within LEASE_SEC; a live owner is never displaced,
// and only the owner can pin (a request that lost its claim rolls its work back).
// A replay answers the first response's exact bytes (docs/api-decisions.md, "Idempotency"): the
// stored body is the text that was sent. A response pinned in a transaction is serialized there
// by the route's own response serializer (the schema's key order), and that same text is what
// the first response sends.
import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../db/database.js';
import { idempotencyStore } from '../modules/idempotency/store.js';
import { httpProblem, problem, problemFromIssues } from './problems.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_MAX_LENGTH = 255;
/** How long a claim holds without renewal before a retry may take over (its owner died). */
export const LEASE_SEC = 10;
/** How often a running request renews its lease. */
const RENEW_MS = 3_000;

/** Canonical JSON (sorted keys) so that the same body in another key order is the same request. */
/** Recursive, but over bodies at most MAX_JSON_DEPTH deep (json-body.ts refuses deeper ones first). */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const obj = value as Record<string, unknown>;
  return `{${Object.keys(obj)
    .sort()
    .filter((k) => obj[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${canonical(obj[k])}`)
    .join(',')}}`;
}

export function requestFingerprint(request: FastifyRequest): string {
  const bodyPart = (request as FastifyRequest & { idempotencyBodyHash?: string }).idempotencyBodyHash ?? canonical(request.body ?? null);
  return fingerprint(request.method, request.url, bodyPart);
}

/** The fingerprint of a request: method, URL and canonical body. */
export function fingerprint(method: string, url: string, canonicalBody: string): string {
  return crypto.createHash('sha256').update(`${method}\n${url}\n${canonicalBody}`).digest('hex');
}

export { canonical as canonicalJson };

const JSON_TYPE = 'application/json; charset=utf-8';

/** `body` as the route would send it with `status`: through its response schema's serializer, else JSON.stringify (as Fastify does). */
function serializeAs(reply: FastifyReply, status: number, body: unknown): string {
  const code = String(status);
  const serialize = [code, `${code[0]}xx`, 'default'].map((c) => reply.getSerializationFunction(c)).find((f) => typeof f === 'function');
  return serialize ? serialize(body as Record<string, unknown>) : JSON.stringify(body);
}

export function makeIdempotencyHooks(db: Database) {
  const leases = new WeakMap<FastifyRequest, NodeJS.Timeout>();
  const owners = new WeakMap<FastifyRequest, string>();
  /** Responses pinned in a route's transaction: the first response sends exactly this text. */
  const pinned = new WeakMap<FastifyRequest, { status: number; text: string }>();
  async function preHandler(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | void> {
    if (!request.routeOptions.config.idempotency || !request.principal) return;
    const raw = request.headers[IDEMPOTENCY_HEADER];
    const key = Array.isArray(raw) ? raw[0] : raw;
    if (key === undefined) {
      const always = request.routeOptions.config.idempotency === 'always';
      if (always || request.principal.via === 'api_key') {
        throw problem(
          'missing-idempotency-key',
          `${always ? 'Every caller' : 'API-key callers'} must send an Idempotency-Key header (a new UUID per distinct request) on ${request.method} ${request.routeOptions.url}`,
        );
      }
      return;
    }
    if (key.length === 0 || key.length > IDEMPOTENCY_MAX_LENGTH) {
      throw problemFromIssues([
        {
          type: key.length ? 'string_too_long' : 'string_too_short',
          loc: ['header', IDEMPOTENCY_HEADER],
          msg: `Idempotency-Key must be 1 to ${IDEMPOTENCY_MAX_LENGTH} characters`,
          input: key.length > 300 ? `${key.slice(0, 300)}…` : key,
        },
      ]);
    }
    const userId = request.principal.userId;
    const hash = requestFingerprint(request);
    const path = request.routeOptions.url ?? request.url;

    const owner = crypto.randomUUID();
    let owned = false;
    for (let attempt = 0; attempt < 3 && !owned; attempt++) {
      if (await idempotencyStore.claim(db, { userId, key, method: request.method, path, hash, lockSec: LEASE_SEC, owner })) {
        owned = true;
        break;
      }
      const row = await idempotencyStore.read(db, userId, key);
      if (!row) continue; // deleted meanwhile (an unpinned failure): claim again
      if (row.expired) {
        await idempotencyStore.deleteExpired(db, userId, key);
        continue;
      }
      if (row.request_hash !== hash) {
        throw problem(
          'idempotency-key-reused',
          `this Idempotency-Key was first used for a different request (${row.method} ${row.path} with another body); use a new key for a new request`,
        );
      }
      if (row.state === 'in_progress') {
        if (row.stale) {
          if (await idempotencyStore.takeOver(db, userId, key, LEASE_SEC, owner)) {
            owned = true;
            break;
          }
        }
        throw problem('idempotency-key-in-progress', 'a request with this Idempotency-Key is still being handled; retry after it finishes');
      }
      reply.header('idempotent-replayed', 'true');
      reply.code(row.response_status ?? 200);
      reply.type(row.response_type ?? 'application/json; charset=utf-8');
      (request as FastifyRequest & { idempotencyReplay?: boolean }).idempotencyReplay = true;
      return reply.send(row.response_body ?? '');
    }
    if (!owned) throw httpProblem(409, 'could not claim the Idempotency-Key (it changed hands repeatedly); retry', { retry: 'conflict' });
    // Renewed while the request runs; stopped when its response is pinned or released.
    const renewal = setInterval(() => void idempotencyStore.renew(db, userId, key, owner, LEASE_SEC).catch(() => undefined), RENEW_MS).unref();
    leases.set(request, renewal);
    request.idempotency = {
      key,
      userId,
      saved: false,
      async saveInTx(tx, status, body, opts = {}) {
        const text = serializeAs(reply, status, body);
        if (!(await idempotencyStore.pin(tx, userId, key, owner, status, text, JSON_TYPE))) {
          // Our lease ran out and a retry took the key over: roll this work back.
          throw problem('idempotency-key-in-progress', "a retry with this Idempotency-Key took over this request; its result is the retry's");
        }
        this.saved = true;
        // A redacted replay (a secret shown once) does not replace the first response.
        if (!opts.redacted) pinned.set(request, { status, text });
      },
    };
    owners.set(request, owner);
  }

  function stopRenewal(request: FastifyRequest): void {
    const t = leases.get(request);
    if (t) clearInterval(t);
    leases.delete(request);
  }

  async function onSend(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
    stopRenewal(request);
    const ctx = request.idempotency;
    const owner = owners.get(request);
    const inTx = pinned.get(request);
    // The route answers the response it pinned: send the pinned text itself, so that the replays
    // repeat the first response byte for byte whatever the handler returned after its commit.
    if (inTx && reply.statusCode === inTx.status) return inTx.text;
    if (!ctx || ctx.saved || owner === undefined) return payload;
    ctx.saved = true;
    if (reply.statusCode >= 500) {
      // A server fault is not pinned: the client may retry the same key.
      await idempotencyStore.release(db, ctx.userId, ctx.key, owner).catch(() => undefined);
      return payload;
    }
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '';
    await idempotencyStore.pin(db, ctx.userId, ctx.key, owner, reply.statusCode, body, String(reply.getHeader('content-type') ?? 'application/json'));
    return payload;
  }

  /** A request that ends without a response (the client went away before it was sent) stops renewing too. */
  async function onResponse(request: FastifyRequest): Promise<void> {
    stopRenewal(request);
  }

  return { preHandler, onSend, onResponse };
}
