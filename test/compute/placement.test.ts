// Where job types run (docs/architecture.md, "Recipes"): the `thread` placement runs
// work in its own worker thread (the event loop keeps turning, progress comes back, an abort
// ends it), and the `process` placement runs a program as an engine call (stdin in, stdout out, abort
// kills it).
import assert from 'node:assert/strict';
import os from 'node:os';
import { describe, it } from 'node:test';
import { JobAborted } from '../../src/compute/job-type.js';
import { JOB_TYPES } from '../../src/compute/registry.js';
import { runInThread, ThreadWorkError } from '../../src/compute/threads.js';
import { runEngine } from '../../src/engines/process.js';

const BUSY = new URL('./fixtures-busy-work.ts', import.meta.url);

/** Node as the program of the `process` placement (an engine call: src/engines/process.ts). */
const runNode = (args: string[], signal: AbortSignal, input?: string) =>
  runEngine({ path: process.execPath, args, cwd: os.tmpdir(), input, threads: 1, memoryBytes: 64 * 1024 ** 3, timeoutMs: 60_000, signal });

describe('job placement', () => {
  it('every registered job type declares where it runs', () => {
    for (const t of JOB_TYPES.values()) assert.ok(['chem-pool', 'thread', 'process', 'event-loop'].includes(t.runsOn), `${t.name}: ${t.runsOn}`);
  });

  it('thread: CPU work runs off the event loop and reports progress with detail', async () => {
    const progress: { f: number; msg?: string; detail?: Record<string, unknown> }[] = [];
    let ticks = 0;
    const tick = setInterval(() => ticks++, 20);
    try {
      const out = await runInThread<{ ms: number }, { spins: number; threadId: number }>(
        BUSY,
        { ms: 800 },
        { signal: new AbortController().signal, progress: (f, msg, detail) => progress.push({ f, msg, detail }) },
      );
      assert.ok(out.spins > 0);
      assert.notEqual(out.threadId, 0, 'ran in a worker thread, not the main one');
    } finally {
      clearInterval(tick);
    }
    // Busy work on the main thread would have let no timer fire until it ended.
    assert.ok(ticks >= 10, `the event loop kept turning while the thread worked (${ticks} ticks of 20 ms in 800 ms)`);
    assert.ok(progress.length >= 3, `progress came back (${progress.length} reports)`);
    const [first] = progress;
    assert.ok(first);
    assert.deepEqual(first.detail, { step: 1, steps: 4 });
    assert.equal(first.msg, 'step 1');
  });

  it('thread: an abort ends the thread at once with the abort reason', async () => {
    const ac = new AbortController();
    const started = Date.now();
    setTimeout(() => ac.abort(new JobAborted('cancelled')), 200);
    await assert.rejects(runInThread(BUSY, { ms: 60_000 }, { signal: ac.signal, progress: () => undefined }), (e: unknown) => e instanceof JobAborted && e.reason === 'cancelled');
    assert.ok(Date.now() - started < 10_000, 'did not wait for the 60 s of work');
  });

  it('thread: an error in the work is rethrown with its message', async () => {
    await assert.rejects(
      runInThread(BUSY, { ms: 10, fail: true }, { signal: new AbortController().signal, progress: () => undefined }),
      (e: unknown) => e instanceof ThreadWorkError && e.message === 'asked to fail',
    );
  });

  it('process: stdin in, stdout out; a non-zero exit is its code, with stderr', async () => {
    const ok = await runNode(['-e', 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>process.stdout.write(s.toUpperCase()))'], new AbortController().signal, 'c1ccccc1');
    assert.deepEqual([ok.code, ok.stdout, ok.stderr], [0, 'C1CCCCC1', '']);
    const bad = await runNode(['-e', 'console.error("bad input");process.exit(3)'], new AbortController().signal);
    assert.equal(bad.code, 3);
    assert.match(bad.stderr, /bad input/);
  });

  it('process: an abort kills the program and rejects with the abort reason', async () => {
    const ac = new AbortController();
    const started = Date.now();
    setTimeout(() => ac.abort(new JobAborted('runtime-limit')), 200);
    await assert.rejects(runNode(['-e', 'setTimeout(() => {}, 60000)'], ac.signal), (e: unknown) => e instanceof JobAborted && e.reason === 'runtime-limit');
    assert.ok(Date.now() - started < 10_000);
  });
});
