// Job rows as the API shows them: money in USD, times in ISO 8601.
import { roundSec } from '../../api/rounding.js';
import { iso, usd } from '../../api/schemas.js';
import { tierNameOf } from '../../config.js';
import type { JobEstimate } from '../../compute/service.js';
import type { JobRow } from '../../compute/store.js';

export function jobListItem(j: JobRow) {
  return {
    process_id: j.id,
    job_name: j.job_name,
    job_type: j.job_type,
    resource: j.resource,
    status: j.status,
    message: j.message,
    runtime_seconds: j.runtime_seconds,
    charged_amount: usd(j.charged_micros),
    expected_billing_cost: usd(j.reserved_micros),
    created_at: iso(j.created_at),
    started_at: iso(j.started_at),
    finished_at: iso(j.finished_at),
    result_artifact_id: j.result_artifact_id,
  };
}

/** Progress beside `message`: the fraction done and whatever the job type reports (null before the job starts). */
export function jobProgress(j: JobRow): ({ fraction: number } & Record<string, unknown>) | null {
  if (j.status === 'queued' && j.progress === 0 && !j.progress_detail) return null;
  return { fraction: j.progress, ...(j.progress_detail ?? {}) };
}

export function jobStatus(j: JobRow) {
  return { process_id: j.id, status: j.status, message: j.message || null, progress: jobProgress(j), result_artifact_id: j.result_artifact_id };
}

export function jobInfo(j: JobRow, runtimeLimitSec: number) {
  return {
    process_id: j.id,
    info: {
      ...jobListItem(j),
      payload: j.payload,
      progress: j.progress,
      progress_detail: j.progress_detail,
      attempts: j.attempts,
      dispatched_at: iso(j.dispatched_at),
      expected_runtime_sec: roundSec(j.expected_runtime_sec),
      runtime_limit_sec: runtimeLimitSec,
      rate_per_sec: usd(j.rate_micros_per_sec),
      reserved_usd: usd(j.reserved_micros),
      cancel_requested: j.cancel_requested,
      ...j.info,
    },
  };
}

export function jobEstimate(e: JobEstimate, tier: number) {
  return {
    cost: usd(e.costMicros)!,
    expected_runtime_sec: roundSec(e.expectedRuntimeSec),
    job_type: e.jobType,
    rate_per_sec: usd(e.resource.rateMicrosPerSec)!,
    resource: e.resource.name,
    tier,
    tier_name: tierNameOf(tier),
    assumptions: { ...e.assumptions, runtime_limit_sec: e.runtimeLimitSec, billing: 'runtime_seconds x rate_per_sec, at most cost' },
  };
}

export function cancelledMessage(processId: string, j: JobRow): string {
  return `job ${processId} cancelled; charged $${usd(j.charged_micros)} for ${j.runtime_seconds.toFixed(2)} s of runtime`;
}
