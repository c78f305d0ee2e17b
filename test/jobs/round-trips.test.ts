// The statements a job costs the database (docs/performance.md, "Compute jobs" and
// "Workflows"): the submit writes the queue message, the job row and the NOTIFY in one
// statement and reserves in one more (the wallet's lock taken last); a worker fetches and
// claims in one statement (queued -> running, no separate dispatched and running updates, the
// message completed in a batch afterwards), and only on the lanes that may hold messages; a
// standalone job ends in a transaction of four statements; a workflow step's end that starts the
// next step in one of nine. Counted by a wrapper around the database the instance uses.
import assert from 'node:assert/strict';
import type { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { Database, Queryable } from '../../src/db/database.js';
import type { ArtifactStorage } from '../../src/storage/storage.js';
import { lanesFor } from '../../src/compute/lanes.js';
import { jobsStore } from '../../src/compute/store.js';
import { BACKENDS, type Backend } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

interface Log {
  /** The statements of each committed transaction, in order. */
  transactions: string[][];
  /** Statements outside transactions. */
  single: string[];
}

/** The backend's databases, wrapped to record every statement. */
function counted(backend: Backend, log: Log): Backend {
  return {
    name: backend.name,
    async create(o) {
      const made = await backend.create(o);
      const db = made.db;
      const wrapped: Database = {
        kind: db.kind,
        query: (sql, params) => {
          log.single.push(sql);
          return db.query(sql, params);
        },
        exec: (sql) => db.exec(sql),
        transaction: (fn) =>
          db.transaction(async (tx) => {
            const list: string[] = [];
            const counting: Queryable = {
              query: (sql, params) => {
                list.push(sql);
                return tx.query(sql, params);
              },
              exec: (sql) => tx.exec(sql),
            };
            const out = await fn(counting);
            log.transactions.push(list);
            return out;
          }),
        listen: (channel, onPayload) => db.listen(channel, onPayload),
        close: () => db.close(),
      };
      return { ...made, db: wrapped };
    },
  };
}

const oneLine = (sql: string) => sql.replace(/\s+/g, ' ').trim();
const has = (list: string[], re: RegExp) => list.some((s) => re.test(oneLine(s)));
/** pg-boss's fetch of a lane as a CTE of the claim of its jobs (jobsStore.claimFetched). */
const FETCH_AND_CLAIM = /^WITH m AS \(.*UPDATE jobs j SET status = 'running'/;

async function waitUntil<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

for (const backend of BACKENDS) {
  describe(`round trips per job [${backend.name}]`, () => {
    const log: Log = { transactions: [], single: [] };
    let h: Harness;
    before(async () => {
      h = await startHarness(counted(backend, log), {}, { workers: 2 });
    });
    after(async () => h?.close());

    it('a standalone job: submit in 2 statements, claimed and started by its fetch, ended in 3 (its result with its row, its event with its settlement); its message completed afterwards', async () => {
      const u = await h.user();
      await h.credit(u.userId, 5);
      log.transactions.length = 0;
      log.single.length = 0;
      const submit = await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: 'rt', job_type: 'properties', payload: { smiles: ['CCO'] } } });
      assert.equal(submit.status, 200, submit.text);
      const pid = submit.body.process_id as string;
      await h.waitForJob(u.token, pid, ['completed']);

      const submitTx = log.transactions.find((t) => has(t, /^WITH m AS \(.*INSERT INTO jobs/));
      assert.ok(submitTx, 'a transaction inserted the job with its message');
      // The message + row + NOTIFY, then the reservation (the wallet's conditional UPDATE, which
      // locks it, and its ledger rows) last: no separate wallet lock held over the insert.
      assert.equal(submitTx.length, 2, submitTx.map(oneLine).join('\n'));
      assert.ok(!has(submitTx, /FROM wallets .*FOR UPDATE/), 'no SELECT ... FOR UPDATE of the wallet');
      assert.ok(/^WITH w AS \( UPDATE wallets .*balance_micros - reserved_micros >= /.test(oneLine(submitTx[1]!)), 'the reservation is the last statement');
      assert.ok(!has(submitTx, /^SELECT pg_notify/), 'no separate NOTIFY');

      const finishTx = log.transactions.find((t) => has(t, /^UPDATE jobs SET status = \$2/));
      assert.ok(finishTx, 'a transaction ended the job');
      // The small result itself (kept in the database: docs/architecture.md, "Artifact storage")
      // with its artifact's row, the job's end (with its charge), the settlement and then, in the
      // same statement, the event (the wallet locked before the event counter).
      assert.equal(finishTx.length, 3, finishTx.map(oneLine).join('\n'));
      assert.ok(
        /^WITH l AS \( INSERT INTO ledger .* w AS \(UPDATE wallets .*RETURNING 1\), c AS \( INSERT INTO event_counters .* FROM \(SELECT count\(\*\) FROM w\) AS gate .*INSERT INTO events/.test(
          oneLine(finishTx[2]!),
        ),
        'the event is written by the settlement statement, after the wallet moved',
      );
      assert.ok(/^WITH inline_object AS \( ?INSERT INTO storage_objects .* INSERT INTO artifacts/.test(oneLine(finishTx[0]!)), 'the result is written with its row');
      assert.ok(!has(finishTx, /FROM workflow_runs/), 'no run lock for a job that is no workflow step');
      assert.ok(!has(finishTx, /FROM wallets .*FOR UPDATE/), 'the settlement locks the wallet itself');

      // Claimed by the statement that fetched it: no separate dispatched or running update.
      assert.ok(has(log.single, FETCH_AND_CLAIM), 'fetched and claimed in one statement');
      assert.ok(!has(log.single, /SET status = 'dispatched'/));
      const { rows } = await h.services.db.query<{ attempts: number; same: boolean; queue_job_id: string; status: string }>(
        'SELECT attempts, dispatched_at = started_at AS same, queue_job_id, status FROM jobs WHERE id = $1',
        [pid],
      );
      assert.deepEqual({ ...rows[0], queue_job_id: typeof rows[0]?.queue_job_id }, { attempts: 1, same: true, queue_job_id: 'string', status: 'completed' });
      // The message is completed in a batch soon after the claim.
      const state = await waitUntil('the message to be completed', async () => {
        const r = await h.services.db.query<{ state: string }>(`SELECT state FROM pgboss.job WHERE id = $1::uuid`, [rows[0]!.queue_job_id]);
        return r.rows[0]?.state === 'completed' ? r.rows[0].state : null;
      });
      assert.equal(state, 'completed');
    });

    it('a workflow step that starts the next one ends in 5 statements (its result with its row, its run locked by its end, its event with its charge, the next step started with its job), and the run is charged what its steps were', async () => {
      const u = await h.user();
      await h.credit(u.userId, 5);
      const step = (id: string, from: string) => ({ id, job_type: 'filter', inputs: { molecules: from }, params: { expression: 'mw < 1000' } });
      const spec = { name: 'rt chain', inputs: { library: { type: 'molecules' } }, steps: [step('a', '$inputs.library'), step('b', '$steps.a.outputs.molecules')] };
      log.transactions.length = 0;
      const start = await h.req('POST', '/api/v1/workflows/runs', { token: u.token, body: { spec, inputs: { library: ['CCO', 'c1ccccc1O'] } } });
      assert.equal(start.status, 201, start.text);
      const runId = start.body.run_id as string;
      await waitUntil('the run to complete', async () => {
        const r = await h.services.db.query<{ status: string }>('SELECT status FROM workflow_runs WHERE id = $1', [runId]);
        return r.rows[0]?.status === 'completed';
      });
      // The start: the hold, the run and its steps (as inserted: neither read again), the first
      // step's job (+ message, NOTIFY, step started), the run's view for the answer.
      const startTx = log.transactions.find((t) => has(t, /^INSERT INTO workflow_runs/));
      assert.ok(startTx, 'the transaction that started the run');
      assert.equal(startTx.length, 6, startTx.map(oneLine).join('\n'));
      assert.ok(!has(startTx, /^SELECT \* FROM workflow_run_steps/) && !has(startTx, /FOR UPDATE OF r/), 'the inserted rows are not read again');
      const transition = log.transactions.find((t) => has(t, /UPDATE jobs SET status = \$2/) && has(t, /INSERT INTO jobs/));
      assert.ok(transition, 'the transaction that ended step a and started step b');
      // The result with its artifact row, job end (+ the run's lock, taken first, and its row),
      // step end (+ run charge, steps), hold charge (it locks the wallet) + the job's event, next
      // job (+ message, NOTIFY, step started).
      assert.equal(transition.length, 5, transition.map(oneLine).join('\n'));
      assert.ok(
        has(
          transition,
          /^WITH locked_run AS \(SELECT \* FROM workflow_runs WHERE id = \$\d+::uuid FOR UPDATE\) UPDATE jobs SET status = \$2.* WHERE \(SELECT count\(\*\) FROM locked_run\) >= 0 AND id = \$1/,
        ),
        'the run is locked by the statement that ends the job, before its row',
      );
      assert.ok(!has(transition, /^SELECT \* FROM workflow_runs/), 'no separate run lock');
      assert.ok(
        has(transition, /^WITH m AS .*step_started AS \( ?UPDATE workflow_run_steps SET state = 'started'.*INSERT INTO jobs/),
        'the next step is marked started by its job insert',
      );
      assert.ok(!has(transition, /FROM wallets .*FOR UPDATE/), 'the hold charge locks the wallet itself');
      assert.ok(
        has(
          transition,
          /^WITH l AS \( INSERT INTO ledger .* w AS \(UPDATE wallets .*RETURNING 1\), c AS \( INSERT INTO event_counters .* FROM \(SELECT count\(\*\) FROM w\) AS gate .*INSERT INTO events/,
        ),
        'the hold charge moves (and locks) the wallet, then appends the event, in one statement',
      );
      const { rows } = await h.services.db.query<{ run: number; steps: number; jobs: number; n: number }>(
        `SELECT r.charged_micros::int8 AS run, (SELECT sum(s.charged_micros)::int8 FROM workflow_run_steps s WHERE s.run_id = r.id) AS steps,
                (SELECT sum(j.charged_micros)::int8 FROM jobs j WHERE j.workflow_run_id = r.id) AS jobs,
                (SELECT count(*)::int FROM workflow_run_steps s WHERE s.run_id = r.id AND s.state = 'completed') AS n
           FROM workflow_runs r WHERE r.id = $1`,
        [runId],
      );
      const c = rows[0]!;
      assert.equal(c.n, 2);
      assert.ok(Number(c.run) > 0, 'the steps were charged');
      assert.deepEqual([Number(c.steps), Number(c.jobs)], [Number(c.run), Number(c.run)]);
    });
  });

  describe(`a worker asks only the lanes that may hold messages [${backend.name}]`, () => {
    const log: Log = { transactions: [], single: [] };
    let h: Harness;
    before(async () => {
      // No poll within the test: every fetch after the first look at each lane is one a wake-up caused.
      h = await startHarness(counted(backend, log), {}, { workers: 2, runtime: { pollMs: 600_000 } });
    });
    after(async () => h?.close());

    it('six jobs one after another: one fetch each (their NOTIFY names the lane), not one per lane per wake-up', async () => {
      const lanes = lanesFor(h.runtime!.foundEngines!).length;
      const u = await h.user();
      await h.credit(u.userId, 5);
      const jobs = 6;
      for (let i = 0; i < jobs; i++) {
        const submit = await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: `lane ${i}`, job_type: 'properties', payload: { smiles: ['CCO'] } } });
        assert.equal(submit.status, 200, submit.text);
        await h.waitForJob(u.token, submit.body.process_id as string, ['completed']);
      }
      const count = () => log.single.filter((s) => FETCH_AND_CLAIM.test(oneLine(s))).length;
      const fetches = count();
      // The first look at every lane at start, then one per job (and a spare for a NOTIFY that
      // raced a fetch). Asking every lane at each wake-up (a NOTIFY, a freed slot) was 2 x lanes per job.
      assert.ok(fetches <= lanes + jobs + 2, `${fetches} fetches for ${jobs} jobs on ${lanes} lanes`);
      assert.ok(fetches >= jobs, `${fetches} fetches for ${jobs} jobs`);
      // A NOTIFY that names no lane (an older instance sends the job id) makes the worker look at every lane.
      await h.services.db.query(`SELECT pg_notify('crucible_jobs', gen_random_uuid()::text)`);
      await waitUntil('a look at every lane', async () => count() >= fetches + lanes);
    });
  });

  describe(`a slot is free while its job's result is stored [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
    });
    after(async () => h?.close());

    it('with one slot, a second job starts (and completes) while the result write of the first is held', async () => {
      const u = await h.user();
      await h.credit(u.userId, 5);
      const real = h.services.artifacts.storage;
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let puts = 0;
      h.services.artifacts.storage = Object.assign(Object.create(real) as ArtifactStorage, {
        async put(source: Readable) {
          if (++puts === 1) await gate; // the first job's result waits
          return real.put(source);
        },
      });
      try {
        const submit = async (name: string) =>
          (await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: name, job_type: 'properties', payload: { smiles: ['CCO'] } } })).body
            .process_id as string;
        const first = await submit('first');
        await waitUntil('the first result write to be held', async () => puts === 1);
        const second = await submit('second');
        await h.waitForJob(u.token, second, ['completed']);
        const { rows } = await h.services.db.query<{ status: string }>('SELECT status FROM jobs WHERE id = $1', [first]);
        assert.equal(rows[0]?.status, 'running', 'the first job is still storing its result');
        release();
        await h.waitForJob(u.token, first, ['completed']);
      } finally {
        release();
        h.services.artifacts.storage = real;
      }
    });
  });

  describe(`fetch and claim in one statement [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend); // no worker: the test fetches itself
    });
    after(async () => h?.close());

    it('claims a queued job (running, attempt 1, this worker), and returns a message whose job moved on without its row', async () => {
      const u = await h.user();
      await h.credit(u.userId, 5);
      const submit = (name: string) => h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: name, job_type: 'properties', payload: { smiles: ['CCO'] } } });
      const a = (await submit('a')).body.process_id as string;
      const b = (await submit('b')).body.process_id as string;
      const cancel = await h.req('DELETE', `/api/v1/jobs/cancel?process_id=${b}`, { token: u.token });
      assert.equal(cancel.status, 200, cancel.text);
      const got = await jobsStore.claimFetched(h.services.db, await h.services.queue.fetchStatement(5), 'worker-1');
      got.sort((x, y) => [a, b].indexOf(x.jobId) - [a, b].indexOf(y.jobId));
      assert.deepEqual(
        got.map((m) => ({ jobId: m.jobId, status: m.job?.status ?? null, attempts: m.job?.attempts ?? null, worker: m.job?.worker_id ?? null })),
        [
          { jobId: a, status: 'running', attempts: 1, worker: 'worker-1' },
          { jobId: b, status: null, attempts: null, worker: null },
        ],
      );
      // Fetched once: a second fetch finds nothing.
      assert.deepEqual(await jobsStore.claimFetched(h.services.db, await h.services.queue.fetchStatement(5), 'worker-2'), []);
      const { rows } = await h.services.db.query<{ id: string; status: string }>('SELECT id, status FROM jobs WHERE id = ANY($1::uuid[]) ORDER BY job_name', [[a, b]]);
      assert.deepEqual(
        rows.map((r) => r.status),
        ['running', 'cancelled'],
      );
    });
  });
}
