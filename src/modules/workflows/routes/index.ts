// Workflows over HTTP (docs/workflows.md), one file per route: definitions (validate, estimate,
// templates, save, versions, delete and restore, fork, share), then runs (start: charges your
// wallet, reserving the estimate; list, read, status, one step, outputs, cancel, rerun, delete
// and the graph). Registered in this order.
import { routeSequence } from '../../../api/module.js';
import { cancelWorkflowRun } from './cancel-workflow-run.js';
import { createWorkflow } from './create-workflow.js';
import { deleteWorkflow } from './delete-workflow.js';
import { deleteWorkflowRun } from './delete-workflow-run.js';
import { estimateWorkflow } from './estimate-workflow.js';
import { forkWorkflow } from './fork-workflow.js';
import { getSharedWorkflow } from './get-shared-workflow.js';
import { getWorkflow } from './get-workflow.js';
import { getWorkflowRun } from './get-workflow-run.js';
import { getWorkflowRunGraph } from './get-workflow-run-graph.js';
import { getWorkflowRunOutputs } from './get-workflow-run-outputs.js';
import { getWorkflowRunStatus } from './get-workflow-run-status.js';
import { getWorkflowRunStep } from './get-workflow-run-step.js';
import { listWorkflowRuns } from './list-workflow-runs.js';
import { listWorkflowShares } from './list-workflow-shares.js';
import { listWorkflowTemplates } from './list-workflow-templates.js';
import { listWorkflowVersions } from './list-workflow-versions.js';
import { listWorkflows } from './list-workflows.js';
import { rerunWorkflowRun } from './rerun-workflow-run.js';
import { restoreWorkflow } from './restore-workflow.js';
import { revokeWorkflowShare } from './revoke-workflow-share.js';
import { shareWorkflow } from './share-workflow.js';
import { startWorkflowRun } from './start-workflow-run.js';
import { updateWorkflow } from './update-workflow.js';
import { validateWorkflow } from './validate-workflow.js';

export const workflowRoutes = routeSequence(
  validateWorkflow,
  estimateWorkflow,
  listWorkflowTemplates,
  createWorkflow,
  listWorkflows,
  getSharedWorkflow,
  getWorkflow,
  updateWorkflow,
  deleteWorkflow,
  restoreWorkflow,
  forkWorkflow,
  listWorkflowVersions,
  shareWorkflow,
  listWorkflowShares,
  revokeWorkflowShare,
  startWorkflowRun,
  listWorkflowRuns,
  getWorkflowRun,
  getWorkflowRunStatus,
  getWorkflowRunStep,
  getWorkflowRunOutputs,
  cancelWorkflowRun,
  rerunWorkflowRun,
  deleteWorkflowRun,
  getWorkflowRunGraph,
);
