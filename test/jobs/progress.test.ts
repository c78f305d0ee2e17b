// Progress beside `message`: a running job's /jobs/status carries a `progress` object with the
// fraction done and what its type reports (the `wait` job: elapsed_seconds and seconds);
// queued jobs show null, a completed one fraction 1, and a late heartbeat does not touch it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { jobsStore } from '../../src/compute/store.js';

for (const backend of BACKENDS) {
  describe(`job progress [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
    });
    after(async () => h?.close());

    it('/jobs/status shows the progress a running job reports, and fraction 1 once completed', async () => {
      const u = await h.user();
      await h.credit(u.userId, 5);
      const submit = await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: 'progress', job_type: 'wait', payload: { seconds: 2 } } });
      assert.equal(submit.status, 200);
      const pid = submit.body.process_id as string;
      let seen: Record<string, unknown> | null = null;
      const until = Date.now() + 20_000;
      while (!seen && Date.now() < until) {
        const s = await h.req('GET', `/api/v1/jobs/status?process_id=${pid}`, { token: u.token });
        assert.equal(s.status, 200);
        assert.ok('progress' in s.body, 'the status carries progress');
        if (s.body.status === 'running' && s.body.progress?.elapsed_seconds !== undefined) seen = s.body.progress;
        else await new Promise((r) => setTimeout(r, 200));
      }
      assert.ok(seen, 'a running status showed the reported detail');
      assert.equal(seen.seconds, 2);
      assert.ok(typeof seen.fraction === 'number' && seen.fraction > 0 && seen.fraction < 1, `fraction ${String(seen.fraction)}`);
      assert.ok(typeof seen.elapsed_seconds === 'number' && seen.elapsed_seconds > 0);
      await h.waitForJob(u.token, pid, ['completed']);
      const done = await h.req('GET', `/api/v1/jobs/status?process_id=${pid}`, { token: u.token });
      assert.equal(done.body.progress.fraction, 1);
      assert.equal(done.body.progress.seconds, 2);
    });

    it('a heartbeat that arrives after the job ended changes nothing: the finished job keeps its empty message', async () => {
      const u = await h.user();
      await h.credit(u.userId, 5);
      const submit = await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: 'late', job_type: 'properties', payload: { smiles: ['CCO'] } } });
      const pid = submit.body.process_id as string;
      await h.waitForJob(u.token, pid, ['completed']);
      const { rows } = await h.services.db.query<{ id: string; worker_id: string; attempts: number }>('SELECT id, worker_id, attempts FROM jobs WHERE id = $1', [pid]);
      const row = rows[0]!;
      // the worker's last heartbeat, sent before the job ended and written after (a loaded machine: the first-hour test saw it)
      const status = await jobsStore.heartbeat(h.services.db, row.id, row.worker_id, row.attempts, { fraction: 0.95, message: 'writing the result', detail: null });
      assert.equal(status, null);
      const after_ = await h.req('GET', `/api/v1/jobs/status?process_id=${pid}`, { token: u.token });
      assert.deepEqual([after_.body.status, after_.body.message, after_.body.progress.fraction], ['completed', null, 1]);
    });
  });
}
