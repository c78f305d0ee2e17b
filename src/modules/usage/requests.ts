// A feature's asynchronous request counted against the monthly allowance (docs/architecture.md,
// "Feature requests on the job runtime"; docs/usage.md): the utilities' and inference's submit.
import type { JobRequest, JobService, Submitter } from '../../compute/service.js';
import { asRequestError } from '../../compute/requests.js';
import type { JobOrigin } from '../../compute/store.js';
import type { Queryable } from '../../db/database.js';
import type { UsageService } from './service.js';
import type { CallKind } from './store.js';

export interface CountedRequest {
  request: JobRequest;
  origin: Exclude<JobOrigin, 'job'>;
  /** What the units count as. */
  kind: CallKind;
  molecules: number;
  units: number;
}

/**
 * Refuses early a request the allowance cannot take, then submits it: its units are counted, and
 * `record(tx, answer)` runs (an idempotent answer is pinned there), in the transaction that
 * creates it. Answers the request's id; the payload's problems are located in the request body.
 */
export async function submitCountedRequest(
  deps: { jobs: JobService; usage: UsageService },
  who: Submitter,
  r: CountedRequest,
  record?: (tx: Queryable, answer: { request_id: string }) => Promise<void>,
): Promise<{ request_id: string }> {
  await deps.usage.assertAvailable(who.userId, who.tier, r.units);
  const requestId = await deps.jobs
    .submitRequest(who, r.request, r.origin, {
      info: { molecules: r.molecules, units: r.units },
      inTransaction: async (tx, ids) => {
        await deps.usage.consume(tx, who.userId, who.tier, r.kind, r.units);
        await record?.(tx, { request_id: ids[0]! });
      },
    })
    .catch((err: unknown) => {
      throw asRequestError(err);
    });
  return { request_id: requestId };
}
