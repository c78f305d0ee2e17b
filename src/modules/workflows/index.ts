// Workflows (docs/workflows.md): DAGs of jobs. Definitions (versions, delete and restore,
// forks, shares), templates, validation and estimates, and runs moved by the engine in
// src/workflows/engine.ts (wired into the job engine by the jobs module).
import type { Module } from '../../api/module.js';
import { validateFor } from './check.js';
import { DefinitionService } from './definitions.js';
import { workflowRoutes } from './routes/index.js';
import { RunService } from './runs.js';
import { WORKFLOW_SCHEMAS } from './schemas.js';
import { invalidInput } from '../../errors.js';

declare module '../../services.js' {
  interface Services {
    workflowDefinitions: DefinitionService;
    workflowRuns: RunService;
  }
}

export const workflowsModule: Module = {
  name: 'workflows',
  provide(s) {
    const workflowDefinitions = new DefinitionService(s.db, s.users, async (userId, spec) => {
      const v = await validateFor(s, userId, spec);
      if (!v.valid) throw invalidInput(v.errors);
    });
    const workflowRuns = new RunService(s.db, {
      jobs: s.jobs,
      artifacts: s.artifacts,
      definitions: workflowDefinitions,
      engine: s.workflowEngine,
      validate: (userId, spec, plans, assumed) => validateFor(s, userId, spec, plans, assumed),
    });
    return { workflowDefinitions, workflowRuns };
  },
  schemas: WORKFLOW_SCHEMAS,
  routes: workflowRoutes,
  tasks: (s) => [{ name: 'workflow-definitions-purge', everyMs: 60 * 60 * 1000, firstDelayMs: 60 * 1000, run: () => s.workflowDefinitions.purgeDeleted() }],
};
