// The `wait` job leaves no abort listeners behind; `crucible wallet credit` with a value
// parseArgs refuses answers one line and exit code 2, never a stack trace.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { getEventListeners } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { JobAborted } from '../../src/compute/job-type.js';
import { waitJob } from '../../src/compute/types/wait.js';
import { crucibleArgv } from '../helpers/cli.js';

function runWait(seconds: number, signal: AbortSignal) {
  const progress: number[] = [];
  const run = waitJob.run({
    jobId: 'j',
    userId: 'u',
    payload: { seconds },
    resource: { name: 'default', vcpu: 1, rateMicrosPerSec: 200 },
    signal,
    progress: (f) => progress.push(f),
    readMolecules: () => [][Symbol.iterator]() as never,
    readFile: () => Promise.reject(new Error('not used by the wait job')),
    readResult: () => Promise.reject(new Error('not used by the wait job')),
    deps: null as never,
  });
  return { run, progress };
}

describe('the wait job', () => {
  it('sleeps with one abort listener at a time and none left after (no MaxListenersExceededWarning)', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const controller = new AbortController();
      let most = 0;
      const probe = setInterval(() => (most = Math.max(most, getEventListeners(controller.signal, 'abort').length)), 5);
      const { run, progress } = runWait(1.5, controller.signal);
      const out = await run;
      clearInterval(probe);
      assert.deepEqual(out.result, { job_type: 'wait', slept_seconds: 1.5 });
      assert.ok(progress.length >= 10, `progress reported ${progress.length} times`);
      assert.equal(progress.at(-1), 1);
      assert.equal(getEventListeners(controller.signal, 'abort').length, 0, 'no listener left on the signal');
      assert.ok(most <= 1, `at most one listener at a time (saw ${most})`);
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(
        warnings.filter((w) => w.name === 'MaxListenersExceededWarning'),
        [],
      );
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('stops within 150 ms of an abort, with the abort reason', async () => {
    const controller = new AbortController();
    const { run } = runWait(60, controller.signal);
    await new Promise((r) => setTimeout(r, 250));
    const t0 = performance.now();
    controller.abort(new JobAborted('cancelled'));
    await assert.rejects(run, (e: unknown) => e instanceof JobAborted && e.reason === 'cancelled');
    assert.ok(performance.now() - t0 < 150, `stopped after ${(performance.now() - t0).toFixed(0)} ms`);
    assert.equal(getEventListeners(controller.signal, 'abort').length, 0);
  });
});

describe('crucible wallet credit: argument errors', () => {
  const root = path.resolve(import.meta.dirname, '../..');
  const crucible = (args: string[]) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-cli-'));
    try {
      return spawnSync(process.execPath, crucibleArgv(args), {
        cwd: root,
        env: { ...process.env, CRUCIBLE_DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
        encoding: 'utf8',
        timeout: 30_000,
      });
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  };

  it('--usd with no value is one usage line and exit code 2, no stack trace', () => {
    const r = crucible(['wallet', 'credit', '--email', 'a@example.com', '--usd']);
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, 'crucible: wallet credit: --usd needs a value (crucible --help shows the usage)\n');
  });

  it('an unknown option is one line too', () => {
    const unknown = crucible(['wallet', 'credit', '--email', 'a@example.com', '--dollars', '5']);
    assert.equal(unknown.status, 2);
    assert.equal(unknown.stderr, "crucible: wallet credit: Unknown option '--dollars' (crucible --help shows the usage)\n");
    assert.doesNotMatch(unknown.stderr, /\n\s+at /, 'no stack trace');
  });
});
