-- The link share a workflow run was started through (docs/workflows.md, "Rerun"): a rerun
-- checks again that the runner may still run the definition, and a run started by link may be
-- rerun only while that link is active. Written by src/workflows/runs-store.ts.
ALTER TABLE workflow_runs ADD COLUMN share_id uuid;
