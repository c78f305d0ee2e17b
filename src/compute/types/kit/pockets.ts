// The pocket search in a worker thread (docs/structure.md, "Pockets"): what the `pockets` job
// type and docking's box_site "auto" share. A receptor with nothing to search is the job's input
// problem (JobInputError).
import { RUNNING_FROM_SOURCE } from '../../../paths.js';
import { JobInputError, type RunContext } from '../../job-type.js';
import { runInThread } from '../../threads.js';
import type { PocketsThreadInput, PocketsThreadOutput } from '../pockets-thread.js';

/** The pockets of the receptor written at `file` (PDB), best first, at most `maxPockets`. */
export async function pocketsOfFile(file: string, maxPockets: number, ctx: Pick<RunContext<unknown>, 'signal'>): Promise<PocketsThreadOutput> {
  return runInThread<PocketsThreadInput, PocketsThreadOutput>(
    new URL(`../pockets-thread${RUNNING_FROM_SOURCE ? '.ts' : '.js'}`, import.meta.url),
    { file, maxPockets },
    { signal: ctx.signal, progress: () => undefined },
  ).catch((err: unknown) => {
    throw err instanceof Error && err.name === 'PocketProblem' ? new JobInputError(err.message) : err;
  });
}
