// The one way a job reaches a terminal state: the conditional UPDATE of store.ts (only one
// caller can win, so cancel racing completion leaves exactly one state), the settlement of its
// reservation and its terminal event, all in the caller's transaction.
import type { Queryable } from '../db/database.js';
import type { JobEventSink, JobRequests, JobWallet, JobWorkflows } from './ports.js';
import { jobsStore, type JobRow, type TerminalUpdate } from './store.js';

/**
 * NOTIFY channel of cancelled jobs: the worker running one stops it at once (an engine's
 * process group is killed) instead of at its next heartbeat (docs/jobs.md).
 */
export const CANCEL_CHANNEL = 'crucible_job_cancel';

export type Finish = Omit<TerminalUpdate, 'resultArtifactId'> & { resultArtifactId?: string | null };

export interface TransitionDeps {
  wallet: JobWallet;
  events: JobEventSink;
  workflows?: JobWorkflows;
  requests?: JobRequests;
}

/**
 * Returns the finished row, or null when the job was already terminal or no longer this worker's.
 * `workflowRunId`: the job's workflow run as the caller read it from its row (it never changes
 * after the insert): the run is then locked by the statement that ends the job; null spares the
 * run lock of a job that is no workflow step, undefined (not known) takes it first, by the job's id.
 */
export async function finishJob(tx: Queryable, deps: TransitionDeps, jobId: string, f: Finish, workflowRunId?: string | null): Promise<JobRow | null> {
  const update = { ...f, resultArtifactId: f.resultArtifactId ?? null };
  const workflows = deps.workflows;
  let job: JobRow | null;
  let locked: unknown;
  if (workflowRunId && workflows) {
    // The run known: locked by the statement that ends the job, before the job's row.
    let lock: ReturnType<JobWorkflows['lockRunWrite']> | undefined;
    const ended = await jobsStore.finishLocking(tx, jobId, update, (first) => (lock = workflows.lockRunWrite(workflowRunId, first)));
    job = ended.job;
    locked = lock!.locked(ended.locked);
  } else {
    locked = workflowRunId !== null ? await workflows?.lockRunOf(tx, jobId) : undefined;
    job = await jobsStore.finish(tx, jobId, update);
  }
  if (!job) return null;
  // One lock order on every path that touches the account's rows (docs/reliability.md "One lock
  // order"): run -> job -> wallet -> event counter. The statement that moves the wallet's totals
  // locks it, and then writes the job's event (its tail): a standalone job's settlement, a
  // workflow step's hold charge (the run engine's; a step charged nothing locks the wallet alone first).
  // Delivered when the transaction commits, to every process listening.
  if (f.status === 'cancelled') await tx.query('SELECT pg_notify($1, $2)', [CANCEL_CHANNEL, job.id]);
  // A feature's request (origin utility or inference) reserved nothing and has no event kind;
  // one that failed gives back the allowance it counted at submit (docs/usage.md).
  if (job.origin !== 'job') {
    if (f.status === 'error') await deps.requests?.failed(tx, job);
    return job;
  }
  const event = { userId: job.user_id, kind: 'job', subjectId: job.id, status: f.status, workflowRunId: job.workflow_run_id } as const;
  if (job.workflow_run_id) {
    if (!deps.workflows) throw new Error(`job ${job.id} is a workflow step, and this instance has no workflow engine`);
    // A workflow step: its run charges it against the run's hold and moves on, in this transaction.
    await deps.workflows.stepFinished(tx, job, locked ?? undefined, {
      append: async () => void (await deps.events.append(tx, event)),
      tail: deps.events.appendTail(event),
    });
    return job;
  }
  // The settlement's statement locks and moves the wallet, then appends the event (its tail).
  const settlement = {
    userId: job.user_id,
    jobId: job.id,
    keyId: job.key_id,
    reservedMicros: job.reserved_micros,
    chargeMicros: job.charged_micros ?? 0, // set by the UPDATE
    note: `job ${f.status}`,
  };
  await deps.wallet.settle(tx, settlement, deps.events.appendTail(event));
  return job;
}
