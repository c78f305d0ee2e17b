// `npm run bench:events`: long-poll wake latency of GET /api/v1/events (target p99 < 100 ms).
//
//   npm run bench:events -- [--iterations 200] [--idle 200] [--json out.json]
//   DATABASE_URL=postgres://... (or CRUCIBLE_TEST_PG_URL) selects the PostgreSQL server; the
//   default is postgres://postgres@127.0.0.1:5432/postgres, skipped when it does not answer.
//
// Method: one Crucible instance (createServices + buildApp, real HTTP on a random port) per
// backend, in this process. Per iteration a client starts a long poll (wait=25) after its
// current cursor; once the server holds it, a writer commits one event with appendEvent in
// its own transaction (as the job engine does). Latency = from the start of the writer's
// transaction to the poll's response arriving at the client, so it includes BEGIN, the
// append, COMMIT, the NOTIFY round trip, the page read and the HTTP response; "after
// commit" is measured from the writer's COMMIT returning. Scenarios:
//   single         one poll waiting
//   idle-others    the same, with --idle polls of other accounts waiting too (never woken)
//   cross-instance PostgreSQL: the poll waits on instance 2, the event is committed by instance 1
// Client, server and writer share one event loop here, so the figures are an upper bound.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/http/app.js';
import { loadConfig } from '../src/config.js';
import type { Database } from '../src/db/database.js';
import { openPglite } from '../src/db/pglite.js';
import { openPostgres } from '../src/db/postgres.js';
import { closeServices, createServices } from '../src/instance.js';
import { appendEvent } from '../src/modules/events/service.js';
import type { Services } from '../src/services.js';
import { freshPgDatabase, pgReachable } from './lib/pg.js';

const { values: args } = parseArgs({
  options: {
    iterations: { type: 'string', default: '200' },
    idle: { type: 'string', default: '200' },
    json: { type: 'string' },
  },
  strict: true,
});
const ITER = Number(args.iterations);
const IDLE = Number(args.idle);
const TARGET_P99_MS = 100;

const log = (s: string) => process.stderr.write(s + '\n');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The `p`th percentile of `xs` (NaN when empty). */
const pctile = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.max(0, Math.ceil((p / 100) * xs.length) - 1))] ?? NaN;
const round1 = (x: number) => Math.round(x * 10) / 10;

interface Instance {
  services: Services;
  app: FastifyInstance;
  base: string;
}

async function startInstance(db: Database): Promise<Instance> {
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    CRUCIBLE_DATA_DIR: '/nonexistent-bench-data-dir',
    CRUCIBLE_WORKERS: '0',
    CRUCIBLE_TIER_PRO_REQUESTS_PER_MINUTE: '1000000000',
    CRUCIBLE_LOGIN_MAX_PER_IP: '1000000',
  });
  const services = await createServices(config, db);
  const app = await buildApp(services, { logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { services, app, base: `http://127.0.0.1:${(app.server.address() as { port: number }).port}` };
}

async function stopInstance(i: Instance): Promise<void> {
  await i.app.close();
  await closeServices(i.services);
}

async function account(i: Instance): Promise<{ userId: string; token: string }> {
  const email = `bench-events-${crypto.randomBytes(6).toString('hex')}@crucible.local`;
  const password = 'bench password, not a secret';
  const u = await i.services.users.create(email, password, 'pro');
  const r = await fetch(`${i.base}/api/v1/auth/login-email`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: email, password }).toString(),
  });
  const body = (await r.json()) as { access_token: string };
  if (r.status !== 200) throw new Error(`login failed: ${r.status}`);
  return { userId: u.id, token: body.access_token };
}

async function firstCursor(base: string, token: string): Promise<string> {
  const r = await fetch(`${base}/api/v1/events`, { headers: { authorization: `Bearer ${token}` } });
  return ((await r.json()) as { next_cursor: string }).next_cursor;
}

interface Figures {
  scenario: string;
  db: string;
  n: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  afterCommitP50: number;
  afterCommitP99: number;
}

/**
 * `waitOn`: the instance holding the poll; `writer`: the database the event is committed through.
 */
async function measure(scenario: string, dbKind: string, waitOn: Instance, writer: Database, n: number, idle: number): Promise<Figures> {
  const me = await account(waitOn);
  let cursor = await firstCursor(waitOn.base, me.token);
  // Idle polls of other accounts: they wait through the whole run and are never woken.
  const idleAbort = new AbortController();
  const idlePolls: Promise<unknown>[] = [];
  if (idle > 0) {
    const others = await Promise.all(Array.from({ length: Math.min(idle, 20) }, () => account(waitOn)));
    for (let k = 0; k < idle; k++) {
      const o = others[k % others.length];
      if (!o) throw new Error('bench:events: no account for the idle polls');
      idlePolls.push(
        (async () => {
          while (!idleAbort.signal.aborted) {
            await fetch(`${waitOn.base}/api/v1/events?wait=25`, { headers: { authorization: `Bearer ${o.token}` }, signal: idleAbort.signal })
              .then((r) => r.arrayBuffer())
              .catch(() => undefined);
          }
        })(),
      );
    }
  }
  const total: number[] = [];
  const afterCommit: number[] = [];
  const warmup = 10;
  try {
    for (let i = 0; i < n + warmup; i++) {
      const base = idle + 1;
      const p = fetch(`${waitOn.base}/api/v1/events?wait=25&after=${encodeURIComponent(cursor)}`, { headers: { authorization: `Bearer ${me.token}` } }).then(async (r) => ({
        body: (await r.json()) as { events: { subject_id: string }[]; next_cursor: string },
        at: performance.now(),
      }));
      while (waitOn.services.events.waiting < base) await sleep(1);
      await sleep(5 + Math.random() * 10);
      const subject = crypto.randomUUID();
      const t0 = performance.now();
      await writer.transaction((tx) => appendEvent(tx, { userId: me.userId, kind: 'job', subjectId: subject, status: 'completed' }));
      const tCommit = performance.now();
      const r = await p;
      if (r.body.events.length !== 1 || r.body.events[0]?.subject_id !== subject) throw new Error(`unexpected answer: ${JSON.stringify(r.body)}`);
      cursor = r.body.next_cursor;
      if (i >= warmup) {
        total.push(r.at - t0);
        afterCommit.push(r.at - tCommit);
      }
    }
  } finally {
    idleAbort.abort();
    await Promise.all(idlePolls);
  }
  return {
    scenario,
    db: dbKind,
    n,
    p50: round1(pctile(total, 50)),
    p90: round1(pctile(total, 90)),
    p99: round1(pctile(total, 99)),
    max: round1(Math.max(...total)),
    afterCommitP50: round1(pctile(afterCommit, 50)),
    afterCommitP99: round1(pctile(afterCommit, 99)),
  };
}

const results: Figures[] = [];

// PGlite (in memory).
{
  log('PGlite: starting');
  const inst = await startInstance(await openPglite(null));
  try {
    results.push(await measure('single', 'pglite', inst, inst.services.db, ITER, 0));
    results.push(await measure('idle-others', 'pglite', inst, inst.services.db, Math.min(ITER, 100), IDLE));
  } finally {
    await stopInstance(inst);
  }
}

// PostgreSQL: a fresh database, dropped afterwards.
const adminUrl = process.env.DATABASE_URL || process.env.CRUCIBLE_TEST_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
if (await pgReachable(adminUrl)) {
  const database = await freshPgDatabase(adminUrl, 'crucible_bench_events');
  log(`PostgreSQL: database ${new URL(database.url).pathname.slice(1)}`);
  try {
    const one = await startInstance(await openPostgres(database.url));
    const two = await startInstance(await openPostgres(database.url));
    try {
      results.push(await measure('single', 'postgres', one, one.services.db, ITER, 0));
      results.push(await measure('idle-others', 'postgres', one, one.services.db, Math.min(ITER, 100), IDLE));
      results.push(await measure('cross-instance', 'postgres', two, one.services.db, ITER, 0));
    } finally {
      await stopInstance(two);
      await stopInstance(one);
    }
  } finally {
    await database.drop().catch(() => undefined);
  }
} else {
  log(`PostgreSQL not reachable at ${adminUrl.replace(/:[^:@/]*@/, ':***@')}: skipped`);
}

const load = fs.existsSync('/proc/loadavg') ? fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ') : 'n/a';
console.log(`\nLong-poll wake latency, ms (writer transaction start -> response at the client); target p99 < ${TARGET_P99_MS} ms; load average ${load}\n`);
console.log('| db | scenario | n | p50 | p90 | p99 | max | after commit p50 | after commit p99 | p99 target |');
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const r of results) {
  console.log(
    `| ${r.db} | ${r.scenario} | ${r.n} | ${r.p50} | ${r.p90} | ${r.p99} | ${r.max} | ${r.afterCommitP50} | ${r.afterCommitP99} | ${r.p99 < TARGET_P99_MS ? 'met' : 'MISSED'} |`,
  );
}
if (args.json) fs.writeFileSync(args.json, JSON.stringify({ when: new Date().toISOString(), load, results }, null, 2));
process.exit(0);
