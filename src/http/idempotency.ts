// Idempotency-Key handling, stored in the database so it holds across instances.
// preHandler: claim the key (or replay / refuse); onSend: pin the response (5xx is not pinned).
// A route that writes in a transaction may pin its response in that same transaction
// through `request.idempotency.saveInTx`, so a crash cannot separate the work from the record.
import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database, Queryable } from '../db/database.js';
import { httpProblem, invalid, problem } from './problems.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_MAX_LENGTH = 255;
/** How long a key replays its first response (the reference: 30 days). */
export const IDEMPOTENCY_RETENTION_DAYS = 30;
/** How long a claim holds before a retry may take over a request whose instance died. */
const IN_FLIGHT_LOCK_SEC = 300;

export interface IdempotencyContext {
  key: string;
  userId: string;
  saved: boolean;
  saveInTx(tx: Queryable, status: number, body: unknown): Promise<void>;
}

interface Row {
  method: string;
  path: string;
  request_hash: string;
  state: 'in_progress' | 'done';
  response_status: number | null;
  response_body: string | null;
  response_type: string | null;
  expired: boolean;
  stale: boolean;
}

/** Canonical JSON (sorted keys) so that the same body in another key order is the same request. */
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
  return crypto.createHash('sha256').update(`${request.method}\n${request.url}\n${bodyPart}`).digest('hex');
}

async function pin(q: Queryable, userId: string, key: string, status: number, body: string, type: string): Promise<void> {
  await q.query(
    `UPDATE idempotency_keys SET state = 'done', response_status = $3, response_body = $4, response_type = $5 WHERE user_id = $1 AND key = $2`,
    [userId, key, status, body, type],
  );
}

export function makeIdempotencyHooks(db: Database) {
  async function preHandler(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | void> {
    if (!request.routeOptions.config.idempotency || !request.principal) return;
    const raw = request.headers[IDEMPOTENCY_HEADER];
    const key = Array.isArray(raw) ? raw[0] : raw;
    if (key === undefined) {
      if (request.principal.via === 'api_key') {
        throw problem('missing-idempotency-key', `API-key callers must send an Idempotency-Key header (a new UUID per distinct request) on ${request.method} ${request.routeOptions.url}`);
      }
      return;
    }
    if (key.length === 0 || key.length > IDEMPOTENCY_MAX_LENGTH) {
      throw invalid(['header', IDEMPOTENCY_HEADER], `Idempotency-Key must be 1 to ${IDEMPOTENCY_MAX_LENGTH} characters`, key.length > 300 ? `${key.slice(0, 300)}…` : key, key.length ? 'string_too_long' : 'string_too_short');
    }
    const userId = request.principal.userId;
    const hash = requestFingerprint(request);
    const path = request.routeOptions.url ?? request.url;

    let owned = false;
    for (let attempt = 0; attempt < 3 && !owned; attempt++) {
      const claimed = await db.query(
        `INSERT INTO idempotency_keys (user_id, key, method, path, request_hash, state, locked_until)
         VALUES ($1, $2, $3, $4, $5, 'in_progress', now() + make_interval(secs => $6))
         ON CONFLICT (user_id, key) DO NOTHING`,
        [userId, key, request.method, path, hash, IN_FLIGHT_LOCK_SEC],
      );
      if (claimed.rowCount === 1) {
        owned = true;
        break;
      }
      const { rows } = await db.query<Row>(
        `SELECT method, path, request_hash, state, response_status, response_body, response_type,
                created_at < now() - make_interval(days => $3) AS expired, locked_until < now() AS stale
           FROM idempotency_keys WHERE user_id = $1 AND key = $2`,
        [userId, key, IDEMPOTENCY_RETENTION_DAYS],
      );
      const row = rows[0];
      if (!row) continue; // deleted meanwhile (an unpinned failure): claim again
      if (row.expired) {
        await db.query('DELETE FROM idempotency_keys WHERE user_id = $1 AND key = $2 AND created_at < now() - make_interval(days => $3)', [userId, key, IDEMPOTENCY_RETENTION_DAYS]);
        continue;
      }
      if (row.request_hash !== hash) {
        throw problem('idempotency-key-reused', `this Idempotency-Key was first used for a different request (${row.method} ${row.path} with another body); use a new key for a new request`);
      }
      if (row.state === 'in_progress') {
        if (row.stale) {
          const took = await db.query(
            `UPDATE idempotency_keys SET locked_until = now() + make_interval(secs => $3)
              WHERE user_id = $1 AND key = $2 AND state = 'in_progress' AND locked_until < now()`,
            [userId, key, IN_FLIGHT_LOCK_SEC],
          );
          if (took.rowCount === 1) {
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
    request.idempotency = {
      key,
      userId,
      saved: false,
      async saveInTx(tx, status, body) {
        await pin(tx, userId, key, status, JSON.stringify(body), 'application/json; charset=utf-8');
        this.saved = true;
      },
    };
  }

  async function onSend(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
    const ctx = request.idempotency;
    if (!ctx || ctx.saved) return payload;
    ctx.saved = true;
    if (reply.statusCode >= 500) {
      // A server fault is not pinned: the client may retry the same key.
      await db.query('DELETE FROM idempotency_keys WHERE user_id = $1 AND key = $2', [ctx.userId, ctx.key]).catch(() => undefined);
      return payload;
    }
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '';
    await pin(db, ctx.userId, ctx.key, reply.statusCode, body, String(reply.getHeader('content-type') ?? 'application/json'));
    return payload;
  }

  return { preHandler, onSend };
}
