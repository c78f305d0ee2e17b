// A thread module for test/compute/placement.test.ts: burns CPU for `ms`, reporting progress,
// or fails when asked.
import type { ThreadWork } from '../../src/compute/threads.js';

const work: ThreadWork<{ ms: number; fail?: boolean }, { spins: number; threadId: number }> = async (input, report) => {
  if (input.fail) throw new RangeError('asked to fail');
  const { threadId } = await import('node:worker_threads');
  const until = Date.now() + input.ms;
  let spins = 0;
  let step = 0;
  while (Date.now() < until) {
    spins++;
    const done = 1 - (until - Date.now()) / input.ms;
    if (done >= (step + 1) / 4) report(done, `step ${++step}`, { step, steps: 4 });
  }
  return { spins, threadId };
};
export default work;
