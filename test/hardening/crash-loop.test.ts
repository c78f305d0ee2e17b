// A job that takes its worker down every time (issue 22: a frozen instance was SIGKILLed and
// restarted, claimed the job again and froze again) ends `error` after its 3 attempts, charged
// nothing, and the restarted server then serves and never claims it again (docs/jobs.md,
// "Workers, heartbeats, attempts"). A real `crucible serve` on the embedded database is
// SIGKILLed each time it runs the job, and restarted on the same data directory.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, describe, it } from 'node:test';
import { requester } from '../helpers/harness.js';
import { startServe, type ServeProcess } from '../helpers/processes.js';

const children: ChildProcess[] = [];
after(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

const ENV = { CRUCIBLE_WORKERS: '1', CRUCIBLE_JOB_STALE_SEC: '2', CRUCIBLE_ADMIN_CREDIT_USD: '10' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a job that takes its worker down at every attempt [pglite]', () => {
  let s: ServeProcess | undefined;
  after(async () => s?.close());

  it('ends error after 3 attempts, not charged, and the restarted server keeps serving without claiming it again', { timeout: 180_000 }, async () => {
    s = await startServe(ENV, children);
    let req = requester(s.base);
    const login = async () => (await req('POST', '/api/v1/auth/login-email', { form: s!.admin })).body.access_token as string;
    let token = await login();
    const walletBefore = (await req('GET', '/api/v1/wallet', { token })).body;
    const submitted = await req('POST', '/api/v1/jobs/submit', { token, body: { job_name: 'takes its worker down', job_type: 'wait', payload: { seconds: 120 } } });
    assert.equal(submitted.status, 200, submitted.text);
    const pid = String(submitted.body.process_id);
    const info = async () =>
      (await req('GET', `/api/v1/jobs/info?process_id=${pid}`, { token })).body.info as { status: string; attempts: number; charged_amount: number; message: string };

    for (let attempt = 1; attempt <= 3; attempt++) {
      // Wait for this attempt to run, then take its worker (the whole instance) down.
      const until = Date.now() + 60_000;
      for (;;) {
        const i = await info();
        if (i.status === 'running' && i.attempts === attempt) break;
        assert.ok(Date.now() < until, `attempt ${attempt} never ran: ${JSON.stringify(i)}`);
        await sleep(100);
      }
      s.child.kill('SIGKILL');
      await new Promise((r) => s!.child.once('exit', r));
      s = await startServe(ENV, children, s);
      req = requester(s.base);
      token = await login();
    }

    // The restarted instance's sweep finds the job lost a third time and ends it.
    const until = Date.now() + 60_000;
    let last = await info();
    while (last.status !== 'error') {
      assert.ok(Date.now() < until && last.status !== 'completed', `the job is ${JSON.stringify(last)}`);
      await sleep(200);
      last = await info();
    }
    assert.equal(last.attempts, 3);
    assert.match(last.message, /worker was lost 3 times \(platform fault; not charged\)/);
    assert.equal(last.charged_amount, 0);
    assert.deepEqual((await req('GET', '/api/v1/wallet', { token })).body, walletBefore, 'nothing charged, nothing left reserved');

    // The server stays up and does not take the job again.
    await sleep(3_000);
    assert.equal((await req('GET', '/api/v1/health/live')).status, 200);
    assert.equal((await info()).status, 'error');
    assert.equal((await info()).attempts, 3);
  });
});
