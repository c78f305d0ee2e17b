// Crash test: a real `crucible serve` (4 job slots, PostgreSQL) is SIGKILLed twice while a few
// hundred short jobs run, and restarted each time. Afterwards, through the API and the database:
// no job lost or duplicated, every job terminal with exactly one terminal event, at most one
// charge and exactly one release per job, no charge above its reservation, and the wallet equal
// to the starting credit minus the charges with nothing left reserved.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../../src/db/database.js';
import { BACKENDS } from '../helpers/backends.js';
import { crucibleArgv } from '../helpers/cli.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const JOBS = 300;
const SLOTS = 4;
const CREDIT_USD = 5;
const ADMIN = { email: 'crash-admin@crucible.local', password: 'crash-admin-password-1' };
const TERMINAL = ['completed', 'error', 'cancelled'];
const SMILES = [
  ['CCO', 'c1ccccc1O', 'CC(=O)Oc1ccccc1C(=O)O'],
  ['CN1C=NC2=C1C(=O)N(C(=O)N2C)C', 'CC(C)Cc1ccc(cc1)C(C)C(=O)O'],
  ['C1CCCCC1', 'OC(=O)CCC(=O)O', 'Nc1ccccc1', 'ClCCl'],
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Server {
  child: ChildProcess;
  base: string;
  pid: number;
  output: () => string;
}

const children: ChildProcess[] = [];

async function startServe(env: Record<string, string>): Promise<Server> {
  const child = spawn(process.execPath, crucibleArgv(['serve']), {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  const base = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Crucible listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code, signal) => reject(new Error(`crucible serve exited (${code ?? signal}) before listening: ${out}`)));
  });
  return { child, base, pid: child.pid!, output: () => out };
}

async function sigkill(s: Server): Promise<void> {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return;
  const exited = new Promise((r) => s.child.once('exit', r));
  s.child.kill('SIGKILL');
  await exited;
}

after(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

/** The live server: requests made while it is down wait for the next one. */
class Current {
  private server: Server | null = null;
  private waiters: ((s: Server) => void)[] = [];
  set(s: Server | null): void {
    this.server = s;
    if (s) for (const w of this.waiters.splice(0)) w(s);
  }
  get(): Promise<Server> {
    return this.server ? Promise.resolve(this.server) : new Promise((r) => this.waiters.push(r));
  }
  now(): Server | null {
    return this.server;
  }
}

function isNetworkError(err: unknown): boolean {
  return err instanceof TypeError; // fetch failed: refused, reset, socket closed by the kill
}

const pgBackend = BACKENDS.find((b) => b.name === 'postgres');

describe('the server SIGKILLed while a few hundred jobs run [postgres]', { skip: pgBackend ? false : 'needs PostgreSQL: CRUCIBLE_TEST_PG_URL is empty' }, () => {
  let db: Database;
  let drop: () => Promise<void>;
  let env: Record<string, string>;
  let dataDir: string;
  const current = new Current();

  before(async () => {
    const created = await pgBackend!.create();
    db = created.db;
    drop = created.drop;
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-crash-'));
    env = {
      DATABASE_URL: created.url!,
      HOST: '127.0.0.1',
      PORT: '0',
      CRUCIBLE_DATA_DIR: dataDir,
      CRUCIBLE_WORKERS: String(SLOTS),
      CRUCIBLE_JOB_STALE_SEC: '2',
      CRUCIBLE_CHEM_THREADS: '2',
      CRUCIBLE_ADMIN_EMAIL: ADMIN.email,
      CRUCIBLE_ADMIN_PASSWORD: ADMIN.password,
      CRUCIBLE_ADMIN_CREDIT_USD: String(CREDIT_USD),
      // Hundreds of submits and checks within a minute from one credential.
      CRUCIBLE_TIER_PRO_REQUESTS_PER_MINUTE: '100000',
    };
  });

  after(async () => {
    const s = current.now();
    if (s && s.child.exitCode === null && s.child.signalCode === null) await sigkill(s);
    await drop?.();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('loses no job, charges none twice, ends each once; the wallet is the credit minus the charges', { timeout: 420_000 }, async (t) => {
    const started = Date.now();
    const s1 = await startServe(env);
    current.set(s1);
    t.diagnostic(`first start listening after ${Date.now() - started} ms`);

    // The admin account of the first start, its token and an API key, through the API.
    const login = await fetch(`${s1.base}/api/v1/auth/login-email`, { method: 'POST', body: new URLSearchParams({ username: ADMIN.email, password: ADMIN.password }) });
    assert.equal(login.status, 200);
    const token = ((await login.json()) as { access_token: string }).access_token;
    const keyRes = await fetch(`${s1.base}/api/v1/auth/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'crash' }),
    });
    assert.equal(keyRes.status, 200);
    const apiKey = ((await keyRes.json()) as { api_key: string }).api_key;
    const { rows: users } = await db.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [ADMIN.email]);
    const userId = users[0]?.id;
    assert.ok(userId, 'the admin account exists');

    /** A call to whichever server is up, waiting through restarts. */
    async function api(method: string, p: string, opts: { key?: boolean; body?: unknown; idem?: string } = {}): Promise<{ status: number; body: any; headers: Headers }> {
      for (;;) {
        const s = await current.get();
        const headers: Record<string, string> = opts.key ? { 'x-api-key': apiKey } : { authorization: `Bearer ${token}` };
        if (opts.body !== undefined) headers['content-type'] = 'application/json';
        if (opts.idem) headers['idempotency-key'] = opts.idem;
        try {
          const r = await fetch(s.base + p, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
          const text = await r.text();
          return { status: r.status, body: text ? JSON.parse(text) : null, headers: r.headers };
        } catch (err) {
          if (!isNetworkError(err)) throw err;
          await sleep(100);
        }
      }
    }

    // Submissions, in 4 paced streams that run on while the first server is killed. Each has its
    // own Idempotency-Key: one cut by the kill is retried with it on the next server and must
    // give exactly one job (the one the dead server committed, or a new one).
    const runTag = crypto.randomBytes(4).toString('hex');
    const processIds: (string | undefined)[] = new Array<string | undefined>(JOBS);
    let inFlight = 0;
    let submitsDone = false;
    let interrupted = 0;
    let replayed = 0;
    let inProgressRetries = 0;
    const payloadOf = (i: number) =>
      i % 4 === 3
        ? { job_name: `props-${i}`, job_type: 'properties', payload: { smiles: SMILES[i % SMILES.length] } }
        : { job_name: `wait-${i}`, job_type: 'wait', payload: { seconds: 1 } };
    async function submit(i: number): Promise<void> {
      const idem = `crash-${runTag}-${i}`;
      for (;;) {
        const s = await current.get();
        inFlight++;
        try {
          const r = await fetch(`${s.base}/api/v1/jobs/submit`, {
            method: 'POST',
            headers: { 'x-api-key': apiKey, 'content-type': 'application/json', 'idempotency-key': idem },
            body: JSON.stringify(payloadOf(i)),
          });
          const body = (await r.json()) as { process_id?: string; type?: string };
          if (r.status === 200 && body.process_id) {
            if (r.headers.get('idempotent-replayed') === 'true') replayed++;
            processIds[i] = body.process_id;
            return;
          }
          // The dead server's claim on the key holds until its lease runs out (10 s).
          if (r.status === 409 && String(body.type).endsWith('idempotency-key-in-progress')) {
            inProgressRetries++;
            await sleep(500);
            continue;
          }
          throw new Error(`submit ${i}: ${r.status} ${JSON.stringify(body)}`);
        } catch (err) {
          if (!isNetworkError(err)) throw err;
          interrupted++;
          await sleep(100);
        } finally {
          inFlight--;
        }
      }
    }
    const STREAMS = 4;
    const submitting = Promise.all(
      Array.from({ length: STREAMS }, async (_, k) => {
        for (let i = k; i < JOBS; i += STREAMS) {
          await submit(i);
          await sleep(120);
        }
      }),
    ).finally(() => (submitsDone = true));
    submitting.catch(() => undefined);

    async function counts(): Promise<Record<string, number>> {
      const { rows } = await db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM jobs WHERE user_id = $1 GROUP BY status', [userId]);
      return Object.fromEntries(rows.map((r) => [r.status, r.n]));
    }
    async function runningOn(s: Server): Promise<number> {
      const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE status = 'running' AND worker_id LIKE $1`, [`%:${s.pid}:%`]);
      return rows[0]?.n ?? 0;
    }
    async function until(what: string, cond: () => Promise<boolean>, ms: number): Promise<void> {
      const deadline = Date.now() + ms;
      while (!(await cond())) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(await counts())}`);
        await sleep(100);
      }
    }

    // First kill: some jobs completed, others running on this server.
    await until('20 completed jobs and 2 running on the first server', async () => ((await counts()).completed ?? 0) >= 20 && (await runningOn(s1)) >= 2, 120_000);
    const atKill1 = await counts();
    const runningAtKill1 = await runningOn(s1);
    // Killed while a submit is in flight (while submits last), so that one is cut.
    const inFlightBy = Date.now() + 3_000;
    while (inFlight === 0 && !submitsDone && Date.now() < inFlightBy) await sleep(1);
    const cutAtKill1 = inFlight;
    current.set(null);
    await sigkill(s1);
    t.diagnostic(`SIGKILL 1 at ${Date.now() - started} ms: ${JSON.stringify(atKill1)}, ${runningAtKill1} running on it, ${cutAtKill1} submits in flight`);

    // Second start, killed once more while it runs jobs.
    const s2 = await startServe(env);
    current.set(s2);
    t.diagnostic(`second start listening at ${Date.now() - started} ms`);
    const completed1 = atKill1.completed ?? 0;
    await until(
      '40 more completed jobs and 2 running on the second server',
      async () => ((await counts()).completed ?? 0) >= completed1 + 40 && (await runningOn(s2)) >= 2,
      180_000,
    );
    const atKill2 = await counts();
    const runningAtKill2 = await runningOn(s2);
    current.set(null);
    await sigkill(s2);
    t.diagnostic(`SIGKILL 2 at ${Date.now() - started} ms: ${JSON.stringify(atKill2)}, ${runningAtKill2} running on it`);

    // Third start: runs everything left (the sweep requeues the jobs of the dead servers).
    const s3 = await startServe(env);
    current.set(s3);
    t.diagnostic(`third start listening at ${Date.now() - started} ms`);
    await submitting;
    t.diagnostic(`submitted ${JOBS} at ${Date.now() - started} ms: ${interrupted} submit calls cut by a kill, ${replayed} replayed, ${inProgressRetries} in-progress retries`);
    try {
      await until(
        'every job terminal',
        async () => {
          const c = await counts();
          return TERMINAL.reduce((n, s) => n + (c[s] ?? 0), 0) === JOBS;
        },
        // About 50 s unloaded; the CI machine runs another test file beside this one.
        240_000,
      );
    } catch (err) {
      const { rows } = await db.query(
        `SELECT j.id, j.status, j.attempts, j.worker_id, j.heartbeat_at, j.created_at, j.queue_job_id, b.state AS message_state
           FROM jobs j LEFT JOIN pgboss.job b ON b.id::text = j.queue_job_id
          WHERE j.user_id = $1 AND j.status NOT IN ('completed', 'error', 'cancelled')`,
        [userId],
      );
      throw new Error(`${(err as Error).message}; unfinished: ${JSON.stringify(rows.slice(0, 20))}`);
    }
    t.diagnostic(`all terminal at ${Date.now() - started} ms`);

    // --- Every submitted job exists once and is terminal (API). ---
    const ids = processIds.filter((x): x is string => typeof x === 'string');
    assert.equal(ids.length, JOBS, 'every submit got a process id');
    assert.equal(new Set(ids).size, JOBS, 'no two submits got the same job');
    const listed = new Map<string, any>();
    for (let offset = 0; ; offset += 100) {
      const r = await api('GET', `/api/v1/jobs/list?limit=100&offset=${offset}`);
      assert.equal(r.status, 200);
      for (const item of r.body.items) listed.set(item.process_id, item);
      if (r.body.items.length < 100) break;
    }
    assert.equal(listed.size, JOBS, 'the API lists exactly the submitted jobs (none lost, none made twice by a retried submit)');
    for (const id of ids) assert.ok(listed.has(id), `job ${id} is listed`);
    const byStatus: Record<string, number> = {};
    for (const item of listed.values()) byStatus[item.status] = (byStatus[item.status] ?? 0) + 1;
    t.diagnostic(`final statuses: ${JSON.stringify(byStatus)}`);
    for (const item of listed.values()) {
      assert.ok(TERMINAL.includes(item.status), `job ${item.process_id} is ${item.status}`);
      assert.ok(
        item.charged_amount === null || item.charged_amount <= item.expected_billing_cost,
        `job ${item.process_id} charged ${item.charged_amount} > reserved ${item.expected_billing_cost}`,
      );
    }
    // Two kills are fewer than the 3 attempts a job gets: every job completes.
    assert.deepEqual(byStatus, { completed: JOBS }, 'every job completed');
    const statuses = await Promise.all(ids.map((id) => api('GET', `/api/v1/jobs/status?process_id=${id}`, { key: true })));
    for (const [i, r] of statuses.entries()) assert.equal(r.body?.status, 'completed', `GET /jobs/status of ${ids[i]}: ${r.status} ${JSON.stringify(r.body)}`);

    // --- One terminal event per job (API feed and events table). ---
    const eventsOf = new Map<string, string[]>();
    let cursor = '';
    for (let page = 0; page < 20; page++) {
      const r = await api('GET', `/api/v1/events?limit=100${cursor ? `&after=${encodeURIComponent(cursor)}` : ''}`);
      assert.equal(r.status, 200);
      for (const e of r.body.events as { subject_id: string; status: string; kind: string }[]) {
        assert.equal(e.kind, 'job');
        eventsOf.set(e.subject_id, [...(eventsOf.get(e.subject_id) ?? []), e.status]);
      }
      if (r.body.events.length === 0) break;
      cursor = r.body.next_cursor;
    }
    assert.equal(eventsOf.size, JOBS, 'the feed has events of every job, of no other subject');
    for (const id of ids) assert.deepEqual(eventsOf.get(id), ['completed'], `job ${id}: one terminal event`);
    const { rows: evRows } = await db.query<{ subject_id: string; n: number }>(
      'SELECT subject_id, count(*)::int AS n FROM events WHERE user_id = $1 GROUP BY subject_id HAVING count(*) <> 1',
      [userId],
    );
    assert.deepEqual(evRows, [], 'events table: one per job');

    // --- The ledger, per job: one reserve, one release, at most one charge, never above the reservation. ---
    const { rows: perJob } = await db.query<{
      id: string;
      reserved: number;
      charged: number | null;
      reserves: number;
      releases: number;
      charges: number;
      reserve_sum: number;
      charge_sum: number;
      release_sum: number;
    }>(
      `SELECT j.id, j.reserved_micros::int8 AS reserved, j.charged_micros::int8 AS charged,
              count(*) FILTER (WHERE l.kind = 'reserve')::int AS reserves,
              count(*) FILTER (WHERE l.kind = 'release')::int AS releases,
              count(*) FILTER (WHERE l.kind = 'charge')::int AS charges,
              coalesce(sum(l.reserved_delta_micros) FILTER (WHERE l.kind = 'reserve'), 0)::int8 AS reserve_sum,
              coalesce(sum(-l.amount_micros) FILTER (WHERE l.kind = 'charge'), 0)::int8 AS charge_sum,
              coalesce(sum(-l.reserved_delta_micros) FILTER (WHERE l.kind = 'release'), 0)::int8 AS release_sum
         FROM jobs j LEFT JOIN ledger l ON l.job_id = j.id
        WHERE j.user_id = $1 GROUP BY j.id`,
      [userId],
    );
    assert.equal(perJob.length, JOBS);
    const bad = perJob.filter(
      (j) =>
        j.reserves !== 1 ||
        j.releases !== 1 ||
        j.charges > 1 ||
        j.reserve_sum !== j.reserved ||
        j.release_sum !== j.reserved ||
        j.charge_sum > j.reserved ||
        j.charge_sum !== (j.charged ?? 0),
    );
    assert.deepEqual(bad, [], 'each job: one reserve, one release of it, at most one charge, within the reservation and equal to the job row');
    const { rows: orphan } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ledger WHERE user_id = $1 AND (job_id IS NULL) <> (kind = 'credit')`, [userId]);
    assert.deepEqual(orphan, [{ n: 0 }], 'every non-credit ledger row belongs to a job');
    const reattempted = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM jobs WHERE user_id = $1 AND attempts > 1', [userId])).rows[0]?.n ?? 0;
    t.diagnostic(`${reattempted} jobs ran more than once (their first run died with a server)`);
    assert.ok(reattempted >= runningAtKill1, 'the jobs running at the first kill were run again');

    // --- Completed jobs have exactly their one result artifact (a killed attempt left no row). ---
    const { rows: arts } = await db.query<{ id: string; n: number; ok: boolean }>(
      `SELECT j.id, count(a.id)::int AS n, bool_and(a.id = j.result_artifact_id) AS ok
         FROM jobs j LEFT JOIN artifacts a ON a.job_id = j.id WHERE j.user_id = $1 GROUP BY j.id HAVING count(a.id) <> 1 OR NOT bool_and(a.id = j.result_artifact_id)`,
      [userId],
    );
    assert.deepEqual(arts, [], 'one result artifact per completed job');

    // --- The wallet: starting credit - sum(charges), nothing reserved (API and database). ---
    const { rows: money } = await db.query<{ credits: number; charges: number; balance: number; reserved: number; ledger_balance: number; ledger_reserved: number }>(
      `SELECT (SELECT coalesce(sum(amount_micros), 0)::int8 FROM ledger WHERE user_id = $1 AND kind = 'credit') AS credits,
              (SELECT coalesce(sum(-amount_micros), 0)::int8 FROM ledger WHERE user_id = $1 AND kind = 'charge') AS charges,
              (SELECT coalesce(sum(amount_micros), 0)::int8 FROM ledger WHERE user_id = $1) AS ledger_balance,
              (SELECT coalesce(sum(reserved_delta_micros), 0)::int8 FROM ledger WHERE user_id = $1) AS ledger_reserved,
              w.balance_micros::int8 AS balance, w.reserved_micros::int8 AS reserved
         FROM wallets w WHERE w.user_id = $1`,
      [userId],
    );
    const m = money[0];
    assert.ok(m, 'the wallet row');
    assert.equal(m.credits, CREDIT_USD * 1_000_000, 'the starting credit');
    const chargedViaApi = [...listed.values()].reduce((n, item) => n + Math.round((item.charged_amount ?? 0) * 1_000_000), 0);
    assert.equal(chargedViaApi, m.charges, 'the charges the API shows per job add up to the ledger');
    assert.ok(m.charges > 0, 'the jobs were charged');
    assert.equal(m.balance, m.credits - m.charges, 'balance = starting credit - sum(charges)');
    assert.equal(m.reserved, 0, 'nothing reserved');
    assert.equal(m.ledger_balance, m.balance, 'wallet balance = ledger');
    assert.equal(m.ledger_reserved, 0, 'ledger reservations net to zero');
    const wallet = await api('GET', '/api/v1/wallet');
    assert.equal(wallet.status, 200);
    assert.equal(Math.round(wallet.body.balance_usd * 1_000_000), CREDIT_USD * 1_000_000 - m.charges, 'GET /wallet balance');
    assert.equal(wallet.body.reserved_usd, 0, 'GET /wallet reserved');
    t.diagnostic(`charged ${m.charges} micro-dollars for ${JOBS} jobs; checked at ${Date.now() - started} ms`);

    // The last server stops cleanly (SIGTERM) with nothing left to hand back.
    const stopAt = Date.now();
    const exited = new Promise<number | null>((r) => s3.child.once('exit', (code) => r(code)));
    s3.child.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise<string>((r) => setTimeout(r, 20_000, 'still running after 20 s').unref())]);
    t.diagnostic(`SIGTERM: exit ${code} after ${Date.now() - stopAt} ms`);
    assert.equal(code, 0, `the last server exits 0 on SIGTERM: ${s3.output().slice(-2000)}`);
  });
});
