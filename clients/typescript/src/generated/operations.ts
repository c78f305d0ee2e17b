// Generated from the OpenAPI document by scripts/clients/generate-typescript.ts: do not edit.

/** The API version the types were generated from (info.version). */
export const API_VERSION = "0.1.0";

/** The operations that take an Idempotency-Key header ("METHOD /path/{param}"): writes the SDK keys and may retry. */
export const IDEMPOTENT_OPERATIONS: readonly string[] = [
  'POST /api/v1/artifacts',
  'POST /api/v1/assistant/plans/{plan_id}/approve',
  'POST /api/v1/assistant/sessions/{session_id}/turns',
  'POST /api/v1/inference/predict',
  'POST /api/v1/inference/submit',
  'POST /api/v1/jobs/submit',
  'POST /api/v1/jobs/submit-multiple',
  'POST /api/v1/utilities/run',
  'POST /api/v1/utilities/submit',
  'POST /api/v1/workflows',
  'POST /api/v1/workflows/runs',
  'POST /api/v1/workflows/runs/{run_id}/rerun',
  'POST /api/v1/workflows/{workflow_id}/fork',
  'POST /api/v1/workflows/{workflow_id}/restore',
  'POST /api/v1/workflows/{workflow_id}/share'
];
