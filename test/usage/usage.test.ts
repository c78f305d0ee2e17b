// The monthly allowance and GET /usage (docs/usage.md): the counter is exact under concurrency
// and across instances (two connection pools on one PostgreSQL database stand for two API
// instances), a refused or rolled-back call counts nothing, months are calendar months in UTC,
// and /usage agrees with /artifacts/usage, the key list and the ledger: standalone jobs,
// workflow runs and Assistant turns each with their own count and charge.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../../src/db/database.js';
import { openPostgres } from '../../src/db/postgres.js';
import { AppError } from '../../src/errors.js';
import { periodOf, UsageService } from '../../src/modules/usage/service.js';
import { ask, newSession } from '../assistant/helpers.js';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { LIBRARY, startRun, uploadSmiles, waitForRun } from '../workflows/helpers.js';

const TIER = { free: 0, pro: 1, team: 2, enterprise: 3 } as const;

for (const backend of BACKENDS) {
  describe(`monthly allowance and usage [${backend.name}]`, () => {
    let h: Harness;
    let second: Database | null = null;
    before(async () => {
      h = await startHarness(backend, { CRUCIBLE_TIER_FREE_MONTHLY_CALLS: '150' }, { workers: 2 });
      if (h.dbUrl) second = await openPostgres(h.dbUrl);
    });
    after(async () => {
      await second?.close();
      await h?.close();
    });

    const usage = (token: string) => h.req('GET', '/api/v1/usage', { token });

    it('GET /usage: the period, tier, calls against the allowance, and storage, keys and jobs as their own endpoints report them', async () => {
      const u = await h.user({ tier: 'pro' });
      await h.credit(u.userId, 10);
      const fresh = await usage(u.token);
      assert.equal(fresh.status, 200, fresh.text);
      const p = periodOf();
      assert.deepEqual(fresh.body.period, { start: p.start.toISOString(), end: p.end.toISOString(), resets_at: p.end.toISOString() });
      assert.deepEqual([fresh.body.tier, fresh.body.tier_name], [1, 'pro']);
      assert.deepEqual(fresh.body.calls, { utilities: 0, inference: 0, total: 0, allowance: 50_000, remaining: 50_000 });
      assert.deepEqual(fresh.body.jobs, { count: 0, charged_usd: 0 });

      await h.key(u.token);
      const form = new FormData();
      form.append('mode', 'file');
      form.append('file', new Blob(['hello usage']), 'a.txt');
      assert.equal((await fetch(`${h.base}/api/v1/artifacts`, { method: 'POST', body: form, headers: { authorization: `Bearer ${u.token}` } })).status, 201);
      const job = await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: 'u', job_type: 'properties', payload: { smiles: ['CCO', 'c1ccccc1'] } } });
      assert.equal(job.status, 200, job.text);
      await h.waitForJob(u.token, job.body.process_id as string);

      const now = await usage(u.token);
      const artifacts = (await h.req('GET', '/api/v1/artifacts/usage', { token: u.token })).body;
      const keys = (await h.req('GET', '/api/v1/auth/api-keys', { token: u.token })).body;
      const listed = (await h.req('GET', '/api/v1/jobs/list', { token: u.token })).body.items[0];
      assert.deepEqual(now.body.storage, { used_bytes: artifacts.used_bytes, quota_bytes: artifacts.quota_bytes, artifact_count: artifacts.artifact_count });
      assert.ok(now.body.storage.artifact_count >= 2, 'the upload and the job result');
      assert.deepEqual(now.body.keys, { used: keys.count, limit: keys.limit });
      assert.equal(now.body.keys.used, 1);
      assert.equal(now.body.jobs.count, 1);
      assert.ok(listed.charged_amount > 0);
      assert.equal(now.body.jobs.charged_usd, listed.charged_amount, 'what the job list says it was charged');
      assert.deepEqual(now.body.workflow_runs, { count: 0, charged_usd: 0 });
      // The job's deletion does not take its charge out of the month (the ledger keeps it).
      assert.equal((await h.req('DELETE', `/api/v1/jobs/delete?process_id=${job.body.process_id}`, { token: u.token })).status, 200);
      assert.deepEqual((await usage(u.token)).body.jobs, now.body.jobs);
      assert.equal((await h.req('GET', '/api/v1/usage')).status, 401);
    });

    it('jobs, workflow runs and Assistant turns: each its own count and charge, as the ledger has them', async () => {
      const u = await h.user({ tier: 'pro' });
      await h.credit(u.userId, 10);
      const micros = (x: number) => Math.round(x * 1e6);
      // The ledger's charges under some ids, in micro-dollars.
      const charged = async (ids: string[]) => {
        const { rows } = await h.services.db.query<{ total: string }>(
          `SELECT coalesce(-sum(amount_micros), 0)::text AS total FROM ledger WHERE user_id = $1 AND kind = 'charge' AND job_id = ANY($2::uuid[])`,
          [u.userId, ids],
        );
        return Number(rows[0]!.total);
      };

      // Two standalone jobs.
      const jobIds: string[] = [];
      for (const smiles of [['CCO'], ['c1ccccc1', 'CC(=O)O']]) {
        const job = await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: 'mix', job_type: 'properties', payload: { smiles } } });
        assert.equal(job.status, 200, job.text);
        jobIds.push(job.body.process_id);
        assert.equal((await h.waitForJob(u.token, job.body.process_id)).status, 'completed');
      }
      // A workflow run of two steps, and its rerun that reuses both (it reserves nothing: no ledger row).
      const library = await uploadSmiles(h, u.token, LIBRARY.slice(0, 4));
      const spec = {
        name: 'mix',
        inputs: { library: { type: 'molecules' } },
        steps: [
          { id: 'describe', job_type: 'properties', inputs: { molecules: '$inputs.library' } },
          { id: 'draw', job_type: 'depict', inputs: { molecules: '$inputs.library' } },
        ],
      };
      const run = await waitForRun(h, u.token, (await startRun(h, u.token, { spec, inputs: { library } })).run_id);
      assert.equal(run.status, 'completed', JSON.stringify(run));
      const stepJobs = run.steps.map((x: any) => x.job_id as string);
      const rerun = await h.req('POST', `/api/v1/workflows/runs/${run.run_id}/rerun`, { token: u.token, body: { reuse_completed: true } });
      assert.equal(rerun.status, 201, rerun.text);
      const reused = await waitForRun(h, u.token, rerun.body.run_id);
      assert.deepEqual([reused.status, reused.charged_usd], ['completed', 0]);
      // An Assistant turn.
      const s = await newSession(h, u.token);
      const { turnId } = await ask(h, u.token, s, 'describe aspirin');
      const turn = (await h.req('GET', `/api/v1/assistant/sessions/${s}/turns/${turnId}`, { token: u.token })).body;
      assert.equal(turn.status, 'completed');

      const got = (await usage(u.token)).body;
      const jobsMicros = await charged(jobIds);
      const runMicros = await charged(stepJobs);
      const turnMicros = await charged([turnId]);
      assert.ok(jobsMicros > 0 && runMicros > 0 && turnMicros > 0, `${jobsMicros} ${runMicros} ${turnMicros}`);
      assert.deepEqual(got.jobs, { count: 2, charged_usd: jobsMicros / 1e6 });
      assert.deepEqual(got.workflow_runs, { count: 2, charged_usd: runMicros / 1e6 });
      assert.deepEqual(got.assistant_turns, { count: 1, charged_usd: turnMicros / 1e6 });
      // The same figures as the endpoints of each kind report.
      const listed = (await h.req('GET', '/api/v1/jobs/list', { token: u.token })).body.items.filter((j: any) => jobIds.includes(j.process_id));
      assert.equal(
        micros(got.jobs.charged_usd),
        listed.reduce((t: number, j: any) => t + micros(j.charged_amount), 0),
      );
      assert.equal(got.workflow_runs.charged_usd, run.charged_usd);
      assert.equal(got.assistant_turns.charged_usd, turn.cost_usd);
      // Together they are every charge of the month, and what left the wallet.
      const all = await h.services.db.query<{ total: string }>(`SELECT (-sum(amount_micros))::text AS total FROM ledger WHERE user_id = $1 AND kind = 'charge'`, [u.userId]);
      assert.equal(jobsMicros + runMicros + turnMicros, Number(all.rows[0]!.total));
      const wallet = (await h.req('GET', '/api/v1/wallet', { token: u.token })).body;
      assert.equal(micros(10 - wallet.balance_usd), jobsMicros + runMicros + turnMicros);
      assert.equal(wallet.reserved_usd, 0);

      // Deleting the session, the runs and the jobs takes nothing out of the month.
      assert.equal((await h.req('DELETE', `/api/v1/assistant/sessions/${s}`, { token: u.token })).status, 200);
      for (const id of [reused.run_id, run.run_id]) assert.equal((await h.req('DELETE', `/api/v1/workflows/runs/${id}`, { token: u.token })).status, 200);
      for (const id of jobIds) assert.equal((await h.req('DELETE', `/api/v1/jobs/delete?process_id=${id}`, { token: u.token })).status, 200);
      const after = (await usage(u.token)).body;
      assert.deepEqual([after.jobs, after.assistant_turns], [got.jobs, got.assistant_turns]);
      assert.deepEqual(after.workflow_runs, { count: 1, charged_usd: got.workflow_runs.charged_usd }, 'a deleted run that reserved nothing leaves no trace in the ledger');
    });

    it('200 concurrent calls against an allowance of 150, over two instances: exactly 150 counted, 50 refused with the reset time', async () => {
      const u = await h.user({ tier: 'free' });
      const svc = h.services.usage;
      // A second instance: its own connection pool on the same database (PostgreSQL); PGlite is one process.
      const other = second ? new UsageService(second, h.config, { keys: h.services.keys, artifacts: h.services.artifacts }) : svc;
      const dbs = [h.services.db, second ?? h.services.db];
      const outcomes = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          dbs[i % 2]!.transaction((tx) => (i % 2 ? other : svc).consume(tx, u.userId, TIER.free, i % 3 ? 'utilities' : 'inference', 1)).then(
            () => 'ok',
            (e: unknown) => e,
          ),
        ),
      );
      const refused = outcomes.filter((o) => o !== 'ok');
      assert.equal(outcomes.length - refused.length, 150);
      assert.equal(refused.length, 50);
      const end = periodOf().end;
      for (const e of refused) {
        assert.ok(e instanceof AppError && e.code === 'monthly-allowance-exceeded', String(e));
        assert.match(e.message, new RegExp(`resets at ${end.toISOString().replace(/[.]/g, '\\.')}`));
        const wait = e.init.retryAfterSec ?? 0;
        assert.ok(Math.abs(wait - (end.getTime() - Date.now()) / 1000) < 60, `Retry-After ${wait} s is the time to the month's end`);
      }
      const calls = (await usage(u.token)).body.calls;
      assert.equal(calls.total, 150);
      assert.equal(calls.utilities + calls.inference, 150);
      assert.deepEqual([calls.allowance, calls.remaining], [150, 0]);
    });

    it('a refused or rolled-back call counts nothing; a request of several units fits whole or not at all', async () => {
      const u = await h.user({ tier: 'free' });
      const svc = h.services.usage;
      await h.services.db.transaction((tx) => svc.consume(tx, u.userId, TIER.free, 'utilities', 148));
      await assert.rejects(
        h.services.db.transaction(async (tx) => {
          await svc.consume(tx, u.userId, TIER.free, 'utilities', 1);
          throw new Error('the call failed after counting');
        }),
        /the call failed/,
      );
      assert.equal((await usage(u.token)).body.calls.total, 148, 'rolled back with its call');
      await assert.rejects(
        h.services.db.transaction((tx) => svc.consume(tx, u.userId, TIER.free, 'inference', 3)),
        (e: unknown) => e instanceof AppError && e.code === 'monthly-allowance-exceeded' && /counts 3 .* \(2 left this month\)/.test(e.message),
      );
      assert.equal((await usage(u.token)).body.calls.total, 148, 'nothing of the refused request');
      await h.services.db.transaction((tx) => svc.consume(tx, u.userId, TIER.free, 'inference', 2));
      assert.deepEqual((await usage(u.token)).body.calls, { utilities: 148, inference: 2, total: 150, allowance: 150, remaining: 0 });
    });

    it('months are calendar months in UTC; enterprise is unlimited', async () => {
      const u = await h.user({ tier: 'free' });
      const svc = h.services.usage;
      const lastSecond = new Date('2026-01-31T23:59:59.500Z');
      const nextMonth = new Date('2026-02-01T00:00:00.000Z');
      await h.services.db.transaction((tx) => svc.consume(tx, u.userId, TIER.free, 'utilities', 150, lastSecond));
      const refused = await h.services.db.transaction((tx) => svc.consume(tx, u.userId, TIER.free, 'utilities', 1, lastSecond)).catch((e: unknown) => e);
      assert.ok(refused instanceof AppError);
      assert.equal(refused.init.retryAfterSec, 1, 'half a second to the reset, rounded up');
      const counts = await h.services.db.transaction((tx) => svc.consume(tx, u.userId, TIER.free, 'utilities', 1, nextMonth));
      assert.deepEqual(counts, { utilities: 1, inference: 0 });
      const all = (await usage(u.token)).body.all_time;
      assert.deepEqual(all, { utilities: 151, inference: 0, total: 151 });

      const big = await h.user({ tier: 'enterprise' });
      await h.services.db.transaction((tx) => svc.consume(tx, big.userId, TIER.enterprise, 'inference', 1_000_000));
      assert.deepEqual((await usage(big.token)).body.calls, { utilities: 0, inference: 1_000_000, total: 1_000_000, allowance: null, remaining: null });
    });
  });
}
