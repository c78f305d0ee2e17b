// `wait`: a diagnostic job that sleeps, for probes and integration tests.
import { setTimeout as sleep } from 'node:timers/promises';
import { Type, type Static } from '@sinclair/typebox';
import { JobAborted, type JobType } from '../job-type.js';

const Payload = Type.Object({ seconds: Type.Number({ minimum: 1, maximum: 3600, description: 'How long to sleep' }) }, { additionalProperties: false });

/** GET /jobs/result of a wait job. */
const Result = Type.Object({ job_type: Type.Literal('wait'), slept_seconds: Type.Number() }, { additionalProperties: false, description: 'wait: how long the job slept' });

export const waitJob: JobType<Static<typeof Payload>> = {
  name: 'wait',
  runsOn: 'event-loop',
  methods: [],
  summary: 'Sleeps for `seconds` (1..3600): a diagnostic job for probes and integration tests',
  payload: Payload,
  result: Result,
  async estimate(p) {
    return { expectedRuntimeSec: p.seconds, assumptions: { model: 'runtime = seconds' } };
  },
  async run(ctx) {
    const started = Date.now();
    const total = ctx.payload.seconds * 1000;
    while (Date.now() - started < total) {
      if (ctx.signal.aborted) throw new JobAborted((ctx.signal.reason as JobAborted | undefined)?.reason ?? 'cancelled');
      // timers/promises removes its abort listener when the timer ends (no listener piles up).
      await sleep(Math.min(100, total - (Date.now() - started)), undefined, { signal: ctx.signal }).catch(() => undefined);
      const elapsed = Date.now() - started;
      ctx.progress(Math.min(1, elapsed / total), undefined, { elapsed_seconds: Math.round(elapsed / 100) / 10, seconds: ctx.payload.seconds });
    }
    if (ctx.signal.aborted) throw new JobAborted((ctx.signal.reason as JobAborted | undefined)?.reason ?? 'cancelled');
    // The loop may end between a report and the deadline (a report at 0.999): the end is 1.
    ctx.progress(1, undefined, { elapsed_seconds: ctx.payload.seconds, seconds: ctx.payload.seconds });
    return { result: { job_type: 'wait', slept_seconds: ctx.payload.seconds } };
  },
};
