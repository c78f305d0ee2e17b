// The job types as tools see them, from the registry (src/compute/registry.ts): the job_type
// argument of the tools that take one, and list_job_types' answer, each type's payload schema
// being the one the job service validates with. A new job type reaches the Assistant's and MCP's
// tools with no line written here (docs/architecture.md, "The tool catalogue").
import { JOB_TYPE_NAMES, JOB_TYPES } from '../compute/registry.js';
import { inlineRefs, type JsonSchema } from './schemas.js';

/** A job_type argument: one of the registry's types (those POST /jobs/submit takes). */
export const jobTypeArg = (description?: string): JsonSchema => ({ type: 'string', enum: [...JOB_TYPE_NAMES], ...(description ? { description } : {}) });

/** What list_job_types answers: every type with its summary, or one type with its payload schema. */
export type JobTypeListing =
  | { ok: true; value: Record<string, unknown> }
  /** An unknown job type: the message names the known ones. */
  | { ok: false; message: string };

/** list_job_types: `lookup` resolves a payload's references to registered schemas (MCP: the app's). */
export function listJobTypes(jobType: unknown, lookup: (id: string) => unknown): JobTypeListing {
  if (typeof jobType === 'string') {
    const t = JOB_TYPES.get(jobType);
    if (!t) return { ok: false, message: `unknown job type "${jobType}"; known: ${JOB_TYPE_NAMES.join(', ')}` };
    return { ok: true, value: { job_type: t.name, summary: t.summary, payload_schema: inlineRefs(t.payload, lookup) } };
  }
  return {
    ok: true,
    value: { job_types: [...JOB_TYPES.values()].map((t) => ({ job_type: t.name, summary: t.summary })), next: 'list_job_types with job_type for its payload schema' },
  };
}
