// Progress beside `message`: a running job's /jobs/status carries a `progress` object with the
// fraction done and what its type reports (the `wait` job: elapsed_seconds and seconds);
// queued jobs show null, a completed one fraction 1.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

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
  });
}
