// The utilities' limits (docs/utilities.md): what one synchronous call may hold, and what an
// asynchronous request counts against the monthly allowance.
import { invalid } from '../../errors.js';
import type { ToolInput, ToolName } from './schemas.js';

/** Molecules of a synchronous call, per tool (similarity: queries x library). */
export const SYNC_LIMITS = {
  convert: { molecules: 100 },
  fingerprints: { molecules: 100 },
  similarity: { queries: 20, library: 1000 },
  substructure: { molecules: 1000 },
  mcs: { molecules: 50 },
  rgroups: { molecules: 100 },
} as const;

/** Async limits beside the schemas' (100,000 molecules; MCS 50; R-groups 1,000). */
export const ASYNC_LIMITS = {
  convert: { molecules: 100_000 },
  fingerprints: { molecules: 100_000 },
  similarity: { queries: 1000, library: 100_000 },
  substructure: { molecules: 100_000 },
  mcs: { molecules: 50 },
  rgroups: { molecules: 1000 },
} as const;

type Sized = { molecules?: string[]; input_artifact_id?: string; queries?: string[]; library?: string[]; library_artifact_id?: string };

/**
 * Refuses a synchronous call over its limits (422 at the list, naming the limit and
 * /utilities/submit). Uploaded sets are counted by the caller (`artifactCount`).
 */
export function checkSyncLimits(tool: ToolName, input: Sized, artifactCount?: number): void {
  const limits = SYNC_LIMITS[tool] as Record<string, number>;
  const over = (field: string, n: number, max: number) => {
    if (n > max) throw invalid(['input', field], `${n} items: a synchronous ${tool} takes at most ${max}; send larger requests to POST /utilities/submit`, n, 'too_long');
  };
  if (tool === 'similarity') {
    over('queries', input.queries?.length ?? 0, limits.queries ?? 0);
    over(input.library_artifact_id ? 'library_artifact_id' : 'library', input.library?.length ?? artifactCount ?? 0, limits.library ?? 0);
    return;
  }
  over(input.input_artifact_id ? 'input_artifact_id' : 'molecules', input.molecules?.length ?? artifactCount ?? 0, limits.molecules ?? 0);
}

/** Refuses an asynchronous request over its limits (the schemas hold the 100,000). */
export function checkAsyncLimits(tool: ToolName, input: Sized): void {
  if (tool === 'similarity' && (input.queries?.length ?? 0) > ASYNC_LIMITS.similarity.queries) {
    throw invalid(
      ['input', 'queries'],
      `${input.queries?.length} queries: a similarity request takes at most ${ASYNC_LIMITS.similarity.queries}`,
      input.queries?.length,
      'too_long',
    );
  }
}

/** Molecules an asynchronous request works on (similarity: queries + library), for its allowance units. */
export function moleculeCount(tool: ToolName, input: ToolInput<ToolName>, artifactCount = 0): number {
  const i = input as Sized;
  if (tool === 'similarity') return (i.queries?.length ?? 0) + (i.library?.length ?? artifactCount);
  return i.molecules?.length ?? artifactCount;
}

/** What an asynchronous request counts against the allowance: ceil(molecules / 100), at least 1. */
export function asyncUnits(molecules: number): number {
  return Math.max(1, Math.ceil(molecules / 100));
}
