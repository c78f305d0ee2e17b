// Jobs finishing together (issue 32, docs/reliability.md "One lock order"): on PostgreSQL with 8
// job slots, 8 one-step workflow runs and 8 standalone `properties` jobs of ONE user are sent
// together, for 5 rounds. A workflow step's end and a standalone job's end both take the user's
// wallet row and event-counter row; before the fix they took them in opposite orders and the
// server deadlocked, losing results ("the result could not be stored"). Every run and job must
// complete, each job be charged exactly once, no request answer 5xx, and the server log no
// deadlock (pg_stat_database.deadlocks of the test's database stays 0).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { LIBRARY, ledger } from '../workflows/helpers.js';

const ROUNDS = 5;
const PER_KIND = 8;
const postgres = BACKENDS.find((b) => b.name === 'postgres');

describe('jobs and workflow steps of one user finishing together (PostgreSQL)', { skip: postgres ? false : 'PostgreSQL not configured' }, () => {
  let h: Harness;
  before(async () => {
    h = await startHarness(postgres!, {}, { workers: 8 });
  });
  after(async () => h?.close());

  it(`${ROUNDS} rounds of ${PER_KIND} runs and ${PER_KIND} jobs: all complete, each charged once, no 5xx, no deadlock`, async () => {
    const u = await h.user();
    await h.credit(u.userId, 50);
    const deadlocksBefore = await deadlocks(h);
    const spec = {
      name: 'one step',
      inputs: { library: { type: 'molecules' } },
      steps: [{ id: 'describe', job_type: 'properties', inputs: { molecules: '$inputs.library' } }],
    };
    const runIds: string[] = [];
    const jobIds: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const answers = await Promise.all([
        ...Array.from({ length: PER_KIND }, (_, i) =>
          h.req('POST', '/api/v1/workflows/runs', { token: u.token, body: { spec, name: `r${round}-${i}`, inputs: { library: LIBRARY.slice(0, 3 + (i % 4)) } } }),
        ),
        ...Array.from({ length: PER_KIND }, (_, i) =>
          h.req('POST', '/api/v1/jobs/submit', {
            token: u.token,
            body: { job_name: `j${round}-${i}`, job_type: 'properties', payload: { smiles: LIBRARY.slice(0, 2 + (i % 5)) } },
          }),
        ),
      ]);
      for (const a of answers) assert.ok(a.status < 500, `a submit answered ${a.status}: ${a.text}`);
      for (const a of answers.slice(0, PER_KIND)) {
        assert.equal(a.status, 201, a.text);
        runIds.push(a.body.run_id);
      }
      for (const a of answers.slice(PER_KIND)) {
        assert.ok(a.status === 200 || a.status === 201, a.text);
        jobIds.push(a.body.process_id);
      }
    }

    // Everything ends; read through the database (the API's rate limit would slow the poll).
    const until = Date.now() + 180_000;
    for (;;) {
      const { rows } = await h.services.db.query<{ n: string }>(
        `SELECT (SELECT count(*) FROM workflow_runs WHERE id = ANY($1::uuid[]) AND status = 'running') + (SELECT count(*) FROM jobs WHERE id = ANY($2::uuid[]) AND status NOT IN ('completed', 'error', 'cancelled')) AS n`,
        [runIds, jobIds],
      );
      if (Number(rows[0]!.n) === 0) break;
      assert.ok(Date.now() < until, `${rows[0]!.n} runs or jobs still going after 180 s`);
      await new Promise((r) => setTimeout(r, 100));
    }

    const runs = await h.services.db.query<{ id: string; status: string; message: string | null }>('SELECT id, status, message FROM workflow_runs WHERE id = ANY($1::uuid[])', [
      runIds,
    ]);
    assert.equal(runs.rows.length, ROUNDS * PER_KIND);
    const runFailures = runs.rows.filter((r) => r.status !== 'completed').map((r) => `${r.id} ${r.status}: ${r.message}`);
    assert.deepEqual(runFailures, [], 'every workflow run completes');

    const stepJobs = await h.services.db.query<{ id: string }>('SELECT id FROM jobs WHERE workflow_run_id = ANY($1::uuid[])', [runIds]);
    assert.equal(stepJobs.rows.length, ROUNDS * PER_KIND, 'one step job per run');
    const all = [...jobIds, ...stepJobs.rows.map((r) => r.id)];
    const jobs = await h.services.db.query<{ id: string; status: string; message: string | null; charged_micros: string | null }>(
      'SELECT id, status, message, charged_micros::text FROM jobs WHERE id = ANY($1::uuid[])',
      [all],
    );
    const jobFailures = jobs.rows.filter((j) => j.status !== 'completed').map((j) => `${j.id} ${j.status}: ${j.message}`);
    assert.deepEqual(jobFailures, [], 'every job completes');

    // Exactly one charge per job, equal to what the job row says it cost; the ledger equals the wallet, nothing left reserved.
    const charges = await h.services.db.query<{ job_id: string; n: string; total: string }>(
      `SELECT job_id, count(*)::text AS n, (-sum(amount_micros))::text AS total FROM ledger WHERE kind = 'charge' AND job_id = ANY($1::uuid[]) GROUP BY job_id`,
      [all],
    );
    const byJob = new Map(charges.rows.map((c) => [c.job_id, c]));
    for (const j of jobs.rows) {
      const c = byJob.get(j.id);
      assert.ok(c, `job ${j.id} was not charged`);
      assert.equal(c.n, '1', `job ${j.id} charged ${c.n} times`);
      assert.equal(Number(c.total), Number(j.charged_micros), `job ${j.id}'s charge equals its row`);
    }
    const l = await ledger(h, u.userId);
    assert.equal(l.balance, l.walletBalance);
    assert.equal(l.reserved, 0);
    assert.equal(l.walletReserved, 0);

    // One terminal event per job and per run, in the feed.
    const events = await h.services.db.query<{ n: string }>('SELECT count(*)::text AS n FROM events WHERE user_id = $1', [u.userId]);
    assert.equal(Number(events.rows[0]!.n), ROUNDS * PER_KIND * 3);

    assert.equal(await deadlocks(h), deadlocksBefore, 'PostgreSQL detected deadlocks in the test database');
  });
});

/** Deadlocks PostgreSQL has detected in this database (its statistics are flushed within a second). */
async function deadlocks(h: Harness): Promise<number> {
  await new Promise((r) => setTimeout(r, 1500));
  const { rows } = await h.services.db.query<{ deadlocks: string }>('SELECT deadlocks::text FROM pg_stat_database WHERE datname = current_database()');
  return Number(rows[0]?.deadlocks ?? 0);
}
