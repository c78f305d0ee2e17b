// npm run bench:assistant — Assistant figures for docs/performance.md, with the default `builtin`
// provider (the embedded deterministic planner) and the request "describe aspirin and caffeine"
// (a describe_molecules call, then the written answer):
//   1. time to first event (TTFE): from sending POST /assistant/sessions/{id}/turns to the first
//      Server-Sent Event of the stream opened right after its 202; turns one at a time, each in a
//      fresh session (made outside the timing), N after W warm-up turns. Split into POST -> 202,
//      202 -> stream headers and headers -> first event, with the server's own share from the
//      database clock (turn transaction start -> first event stored). Baseline in the same run,
//      interleaved (after each turn): GET /assistant/models and GET /wallet with the same token.
//      Target: TTFE p99 < 150 ms;
//   2. C turns at once: C users, one session each, all turns started together, each streamed by
//      its own client. Per stream: ids 1..n contiguous, none duplicated, the last event `done`
//      {status: completed}, the same events as a re-read from Last-Event-ID 0 afterwards and as
//      the stored rows; the same answer text as every other turn (deterministic). Wall time,
//      per-turn duration (POST sent -> last event received) p50/p99, lost and duplicated events.
// After both: every turn's ledger is exactly reserve + release + charge (the charge its cost,
// the hold back to 0), every turn completed, every wallet's reserved_usd is 0 (GET /wallet).
// Runs on PGlite always and on PostgreSQL when one answers (CRUCIBLE_BENCH_PG_URL, default
// postgres://postgres@127.0.0.1:5432/postgres), each in a fresh database (dropped at the end).
// Exits 1 when the target is missed or any check fails (a lost or duplicated event included).
//
// Options (env): BENCH_TTFE_TURNS (200), BENCH_TTFE_WARMUP (20), BENCH_CONCURRENT_TURNS (50),
// BENCH_BACKENDS=pglite,postgres; `--profile`: a V8 CPU profile of the concurrent phase (server
// and clients: one process), written to a temporary directory and summarised (busy time by area
// and the top functions).
import os from 'node:os';
import { isDeepStrictEqual } from 'node:util';
import { benchUser as newUser, PG_ADMIN, startInstance, type BenchInstance as Instance, type BenchUser as User } from './lib/instance.js';
import { pgReachable } from './lib/pg.js';
import { parseSse, type SseEvent } from '../test/helpers/sse.js';
import { profiledIf } from './lib/profile.js';

const N_TTFE = Number(process.env.BENCH_TTFE_TURNS ?? 200);
const WARMUP = Number(process.env.BENCH_TTFE_WARMUP ?? 20);
const N_CONC = Number(process.env.BENCH_CONCURRENT_TURNS ?? 50);
const MESSAGE = 'describe aspirin and caffeine';
const TTFE_P99_TARGET_MS = 150;
const PROFILE = process.argv.includes('--profile');

const profiled = <T>(label: string, fn: () => Promise<T>) => profiledIf(PROFILE, label, N_CONC, fn);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const stats = (xs: number[]) => ({ p50: round(pct(xs, 50)), p99: round(pct(xs, 99)), max: round(Math.max(...xs)) });

async function api<T>(inst: Instance, u: User, method: string, p: string, body?: unknown): Promise<T> {
  const r = await fetch(inst.base + p, {
    method,
    headers: { authorization: `Bearer ${u.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!r.ok) throw new Error(`${method} ${p}: ${r.status} ${await r.text()}`);
  return (await r.json()) as T;
}

async function rows<T>(inst: Instance, sql: string, params: unknown[] = []): Promise<T[]> {
  return (await inst.services.db.query<T & Record<string, unknown>>(sql, params)).rows;
}

/**
 * Reads a turn's stream to the end of the response (the server ends it after `done`/`error`, so
 * anything sent after the last event would be seen); times in ms from `t0` (performance.now()).
 */
async function readStream(inst: Instance, u: User, sid: string, tid: string, o: { t0?: number; lastEventId?: number } = {}) {
  const t0 = o.t0 ?? performance.now();
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), 60_000);
  try {
    const res = await fetch(`${inst.base}/api/v1/assistant/sessions/${sid}/turns/${tid}/stream`, {
      headers: { authorization: `Bearer ${u.token}`, ...(o.lastEventId !== undefined ? { 'last-event-id': String(o.lastEventId) } : {}) },
      signal: ctl.signal,
    });
    const headersAt = performance.now() - t0;
    if (res.status !== 200 || !res.body) throw new Error(`stream of turn ${tid}: ${res.status} ${await res.text()}`);
    const events: SseEvent[] = [];
    let firstAt = NaN;
    let lastAt = NaN;
    let buf = '';
    const dec = new TextDecoder();
    for await (const chunk of res.body) {
      buf += dec.decode(chunk as Uint8Array, { stream: true });
      const cut = buf.lastIndexOf('\n\n');
      if (cut < 0) continue;
      const got = parseSse(buf.slice(0, cut + 2));
      buf = buf.slice(cut + 2);
      if (!got.length) continue;
      lastAt = performance.now() - t0;
      if (Number.isNaN(firstAt)) firstAt = lastAt;
      events.push(...got);
    }
    if (buf.trim()) throw new Error(`stream of turn ${tid} ended inside a frame: ${JSON.stringify(buf.slice(0, 200))}`);
    return { events, headersAt, firstAt, lastAt };
  } finally {
    clearTimeout(timer);
  }
}

const answerOf = (events: SseEvent[]) =>
  events
    .filter((e) => e.event === 'delta')
    .map((e) => String(e.data.text))
    .join('');

/** What is wrong with a live stream: ids not 1..n, duplicates, not ending with done {completed}. */
function streamProblems(events: SseEvent[]): { duplicated: number; problems: string[] } {
  const ids = events.map((e) => e.id);
  const duplicated = ids.length - new Set(ids).size;
  const problems: string[] = [];
  if (!ids.every((id, k) => id === k + 1)) problems.push(`ids not 1..${ids.length}: ${ids.join(',')}`);
  const last = events.at(-1);
  if (last?.event !== 'done' || last.data.status !== 'completed') problems.push(`last event ${last?.event ?? 'none'} ${JSON.stringify(last?.data ?? null)}`);
  if (events.filter((e) => e.event === 'done' || e.event === 'error').length !== 1) problems.push('not exactly one done/error event');
  return { duplicated, problems };
}

/** The server's share, from the database clock: the start of each turn's transaction (its row's created_at) to the start of the statement that stored its first event. */
async function firstStored(inst: Instance, turnIds: string[]): Promise<number[]> {
  const r = await rows<{ ms: number }>(
    inst,
    `SELECT extract(epoch FROM e.created_at - t.created_at)::float8 * 1000 AS ms
       FROM assistant_turns t JOIN assistant_turn_events e ON e.turn_id = t.id AND e.seq = 1 WHERE t.id = ANY($1::uuid[])`,
    [turnIds],
  );
  return r.map((x) => Number(x.ms));
}

async function ttfe(inst: Instance, u: User) {
  const total: number[] = [];
  const post: number[] = [];
  const headers: number[] = [];
  const models: number[] = [];
  const wallet: number[] = [];
  const firstTypes = new Map<string, number>();
  const turnIds: string[] = [];
  const failures: string[] = [];
  let answer: string | null = null;
  for (let i = 0; i < WARMUP + N_TTFE; i++) {
    const { session_id: sid } = await api<{ session_id: string }>(inst, u, 'POST', '/api/v1/assistant/sessions', { title: `ttfe ${i}` });
    const t0 = performance.now();
    const { turn_id: tid } = await api<{ turn_id: string }>(inst, u, 'POST', `/api/v1/assistant/sessions/${sid}/turns`, { message: MESSAGE });
    const posted = performance.now() - t0;
    const s = await readStream(inst, u, sid, tid, { t0 });
    const m0 = performance.now();
    await api(inst, u, 'GET', '/api/v1/assistant/models');
    const w0 = performance.now();
    await api(inst, u, 'GET', '/api/v1/wallet');
    const w1 = performance.now();
    const check = streamProblems(s.events);
    if (check.duplicated || check.problems.length) failures.push(`ttfe turn ${tid}: ${check.duplicated} duplicated; ${check.problems.join('; ')}`);
    answer ??= answerOf(s.events);
    if (answerOf(s.events) !== answer) failures.push(`ttfe turn ${tid}: a different answer text`);
    if (i < WARMUP) continue;
    total.push(s.firstAt);
    post.push(posted);
    headers.push(s.headersAt - posted);
    models.push(w0 - m0);
    wallet.push(w1 - w0);
    turnIds.push(tid);
    const first = s.events[0]?.event ?? 'none';
    firstTypes.set(first, (firstTypes.get(first) ?? 0) + 1);
  }
  if (!answer?.includes('aspirin') || !answer.includes('caffeine')) failures.push(`the answer does not describe both molecules: ${JSON.stringify(answer)}`);
  const server = await firstStored(inst, turnIds);
  const firstAfterHeaders = total.map((t, k) => t - post[k]! - headers[k]!);
  return {
    ttfe: stats(total),
    post: stats(post),
    headers: stats(headers),
    afterHeaders: stats(firstAfterHeaders),
    server: stats(server),
    models: stats(models),
    wallet: stats(wallet),
    firstTypes: [...firstTypes].map(([t, n]) => `${t} x${n}`).join(', '),
    answer: answer ?? '',
    failures,
  };
}

async function concurrent(inst: Instance, users: User[], answer: string, label: string) {
  const sids = await Promise.all(users.map(async (u, i) => (await api<{ session_id: string }>(inst, u, 'POST', '/api/v1/assistant/sessions', { title: `conc ${i}` })).session_id));
  const t0 = performance.now();
  const runs = await profiled(`${label}-concurrent`, () =>
    Promise.all(
      users.map(async (u, i) => {
        const s0 = performance.now();
        const { turn_id: tid } = await api<{ turn_id: string }>(inst, u, 'POST', `/api/v1/assistant/sessions/${sids[i]}/turns`, { message: MESSAGE });
        const posted = performance.now() - s0;
        const live = await readStream(inst, u, sids[i]!, tid, { t0: s0 });
        return { u, sid: sids[i]!, tid, live, posted };
      }),
    ),
  );
  const wall = performance.now() - t0;
  let lost = 0;
  let duplicated = 0;
  let events = 0;
  const failures: string[] = [];
  for (const { u, sid, tid, live } of runs) {
    const check = streamProblems(live.events);
    duplicated += check.duplicated;
    events += live.events.length;
    const reread = (await readStream(inst, u, sid, tid, { lastEventId: 0 })).events;
    const stored = await rows<{ seq: number; type: string; data: unknown }>(inst, 'SELECT seq, type, data FROM assistant_turn_events WHERE turn_id = $1 ORDER BY seq', [tid]);
    const seen = new Set(live.events.map((e) => e.id));
    lost += stored.filter((e) => !seen.has(Number(e.seq))).length;
    const storedSse = stored.map((e) => ({ id: Number(e.seq), event: e.type, data: e.data }));
    if (!isDeepStrictEqual(live.events, reread)) check.problems.push(`live stream (${live.events.length} events) differs from the re-read from Last-Event-ID 0 (${reread.length})`);
    if (!isDeepStrictEqual(reread, storedSse)) check.problems.push(`the re-read differs from the ${stored.length} stored events`);
    if (answerOf(live.events) !== answer) check.problems.push(`a different answer text: ${JSON.stringify(answerOf(live.events).slice(0, 120))}`);
    if (check.problems.length) failures.push(`turn ${tid}: ${check.problems.join('; ')}`);
  }
  if (lost) failures.push(`${lost} stored events never reached their live stream`);
  if (duplicated) failures.push(`${duplicated} events delivered twice`);
  const ms = runs.map((r) => r.live.lastAt);
  const first = stats(runs.map((r) => r.live.firstAt));
  const post = stats(runs.map((r) => r.posted));
  const tids = runs.map((r) => r.tid);
  const server = stats(await firstStored(inst, tids));
  return { wall: round(wall / 1000, 2), turn: stats(ms), first, post, server, events, lost, duplicated, failures };
}

/** Every turn: completed, its ledger exactly reserve + release + charge (charge = cost, hold back to 0); every wallet's hold 0. */
async function moneyChecks(inst: Instance, users: User[]): Promise<{ turns: number; failures: string[] }> {
  const bad = await rows<{ id: string; status: string; kinds: string | null; held: string | null; charged: string | null; cost: string }>(
    inst,
    `SELECT t.id, t.status, l.kinds, l.held::text, l.charged::text, t.cost_micros::text AS cost FROM assistant_turns t
       LEFT JOIN LATERAL (SELECT string_agg(kind, ',' ORDER BY kind) AS kinds, sum(reserved_delta_micros) AS held,
                                 -sum(amount_micros) FILTER (WHERE kind = 'charge') AS charged FROM ledger WHERE job_id = t.id) l ON true
      WHERE t.status <> 'completed' OR l.kinds IS DISTINCT FROM 'charge,release,reserve' OR l.held <> 0 OR l.charged <> t.cost_micros OR t.cost_micros <= 0`,
  );
  const failures = bad.slice(0, 5).map((b) => `turn ${b.id}: ${b.status}, ledger ${b.kinds ?? 'none'}, hold left ${b.held}, charged ${b.charged} for cost ${b.cost}`);
  if (bad.length > 5) failures.push(`... ${bad.length - 5} more turns`);
  const [n] = await rows<{ n: number }>(inst, 'SELECT count(*)::int AS n FROM assistant_turns');
  const reserved = await Promise.all(users.map((u) => api<{ reserved_usd: number }>(inst, u, 'GET', '/api/v1/wallet')));
  const held = reserved.filter((w) => w.reserved_usd !== 0).length;
  if (held) failures.push(`${held} of ${users.length} wallets with reserved_usd <> 0`);
  return { turns: n?.n ?? 0, failures };
}

async function main() {
  const wanted = (process.env.BENCH_BACKENDS ?? 'pglite,postgres').split(',');
  const backends = wanted.filter((b): b is 'pglite' | 'postgres' => b === 'pglite' || b === 'postgres');
  const hasPg = await pgReachable(PG_ADMIN);
  const table: string[][] = [];
  const failed: string[] = [];
  const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
  const pp = (s: { p50: number; p99: number; max?: number }) => `${s.p50} / ${s.p99}${s.max !== undefined ? ` / ${s.max}` : ''}`;
  console.log(`machine: ${os.availableParallelism()} cores, node ${process.version}; message "${MESSAGE}"; TTFE ${N_TTFE} turns after ${WARMUP}; ${N_CONC} concurrent turns`);
  for (const backend of backends) {
    if (backend === 'postgres' && !hasPg) {
      console.log(`PostgreSQL not reachable at ${PG_ADMIN}: skipping its runs (PGlite only)`);
      continue;
    }
    const inst = await startInstance(backend, {
      env: {
        CRUCIBLE_ASSISTANT_PROVIDER: 'builtin',
        CRUCIBLE_ASSISTANT_MODEL: '',
        CRUCIBLE_LOGIN_MAX_PER_IP: '1000', // the concurrent part logs in 50 accounts from 127.0.0.1 (default: 30 a minute)
      },
    });
    try {
      const solo = await newUser(inst, 'ttfe', 100);
      const t = await ttfe(inst, solo);
      const ratio = { p50: round(t.ttfe.p50 / t.models.p50), p99: round(t.ttfe.p99 / t.models.p99) };
      console.log(`[${backend}] TTFE (ms, p50/p99/max): ${pp(t.ttfe)}; first event: ${t.firstTypes}`);
      console.log(`[${backend}]   POST -> 202 ${pp(t.post)}; 202 -> stream headers ${pp(t.headers)}; headers -> first event ${pp(t.afterHeaders)}`);
      console.log(`[${backend}]   server: turn tx start -> first event stored ${pp(t.server)}; baseline GET /assistant/models ${pp(t.models)}, GET /wallet ${pp(t.wallet)}`);
      const ttfeOk = t.ttfe.p99 < TTFE_P99_TARGET_MS;
      table.push(
        [backend, `TTFE p50 / p99 / max (ms; ${N_TTFE} turns)`, pp(t.ttfe), `p99 < ${TTFE_P99_TARGET_MS} ms`, verdict(ttfeOk)],
        [backend, '  POST /turns -> 202 p50 / p99 / max', pp(t.post), '', ''],
        [backend, '  202 -> stream response headers p50 / p99 / max', pp(t.headers), '', ''],
        [backend, '  stream headers -> first event p50 / p99 / max', pp(t.afterHeaders), '', ''],
        [backend, '  server: turn tx start -> first event stored (db clock) p50 / p99 / max', pp(t.server), '', ''],
        [backend, 'baseline GET /assistant/models p50 / p99 / max (ms)', pp(t.models), 'baseline', ''],
        [backend, 'baseline GET /wallet p50 / p99 / max (ms)', pp(t.wallet), '', ''],
        [backend, 'TTFE / GET /assistant/models, at p50 / p99', `${ratio.p50}x / ${ratio.p99}x`, '', ''],
      );
      if (!ttfeOk) failed.push(`${backend}: TTFE p99 ${t.ttfe.p99} ms >= ${TTFE_P99_TARGET_MS} ms`);
      failed.push(...t.failures.map((f) => `${backend}: ${f}`));
      const users: User[] = [];
      for (let i = 0; i < N_CONC; i++) users.push(await newUser(inst, `c${i}`, 1));
      const c = await concurrent(inst, users, t.answer, backend);
      console.log(
        `[${backend}] ${N_CONC} concurrent turns: wall ${c.wall} s; per turn (ms) ${pp(c.turn)}; first event ${pp(c.first)} (POST -> 202 ${pp(c.post)}, server ${pp(c.server)}); ${c.events} events, ${c.lost} lost, ${c.duplicated} duplicated`,
      );
      const money = await moneyChecks(inst, [solo, ...users]);
      const checks = [...c.failures, ...money.failures];
      console.log(`[${backend}] checks over ${money.turns} turns: ${checks.length ? checks.join('; ') : 'all passed'}`);
      table.push(
        [backend, `${N_CONC} concurrent turns: wall (s)`, String(c.wall), '', ''],
        [backend, '  per turn, POST sent -> last event p50 / p99 / max (ms)', pp(c.turn), '', ''],
        [backend, '  TTFE under that load p50 / p99 / max (ms)', pp(c.first), '', ''],
        [backend, '  POST /turns -> 202 under that load p50 / p99 / max (ms)', pp(c.post), '', ''],
        [backend, '  server: turn tx start -> first event stored, under that load', pp(c.server), '', ''],
        [backend, '  events streamed / lost / duplicated', `${c.events} / ${c.lost} / ${c.duplicated}`, '0 lost, 0 duplicated', verdict(!c.lost && !c.duplicated)],
        [
          backend,
          '  ids 1..n, done completed, live = re-read = stored, same answer',
          c.failures.length ? `${c.failures.length} failures` : 'all hold',
          '',
          verdict(!c.failures.length),
        ],
        [
          backend,
          `ledger reserve+release+charge, completed, hold 0 (${money.turns} turns)`,
          money.failures.length ? `${money.failures.length} failures` : 'all hold',
          '',
          verdict(!money.failures.length),
        ],
      );
      failed.push(...checks.map((f) => `${backend}: ${f}`));
    } finally {
      await inst.close();
    }
  }
  console.log('\n| backend | figure | value | target | verdict |\n|---|---|---|---|---|');
  for (const r of table) console.log(`| ${r.join(' | ')} |`);
  if (failed.length) throw new Error(`targets missed or checks failed:\n${failed.join('\n')}`);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
