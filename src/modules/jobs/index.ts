// Jobs: the compute engine (src/compute) wired to the wallet, the events feed and the artifact
// store through its ports (and the workflow run engine, which step jobs' ends move), and its routes.
import path from 'node:path';
import type { Module } from '../../api/module.js';
import type { ComputePorts } from '../../compute/ports.js';
import { JobRuntime, type RuntimeOptions } from '../../compute/runtime.js';
import { JobService } from '../../compute/service.js';
import { WorkflowEngine } from '../../workflows/engine.js';
import { PdbFiles } from '../../lookups/pdb-files.js';
import { jobArtifactsFrom } from '../artifacts/job-results.js';
import { DbLookupCache } from '../lookups/cache.js';
import { appendEvent, appendEventTail } from '../events/service.js';
import { failedRequestRefunds } from '../usage/service.js';
import { jobRoutes } from './routes.js';
import { JOB_SCHEMAS } from './schemas.js';

declare module '../../services.js' {
  interface Services {
    jobs: JobService;
    /** Moves workflow runs as their step jobs end (docs/workflows.md); a port of the job engine. */
    workflowEngine: WorkflowEngine;
    /** A compute worker runtime with this many slots (serve and `crucible worker` start one); its sweep runs on the scheduler. */
    runtime(slots: number, opts?: Partial<Omit<RuntimeOptions, 'slots' | 'deps'>> & { sweepMs?: number }): JobRuntime;
  }
}

export const jobsModule: Module = {
  name: 'jobs',
  provide({ db, config, queue, wallet, artifacts, chem, scheduler, models, log }) {
    const workflowEngine = new WorkflowEngine(queue);
    // RCSB PDB files for docking receptors given as pdb_id: the lookups' source switch, hosts and database cache.
    const pdb = new PdbFiles({ urls: config.lookups.urls, disabled: config.lookups.disabled, cache: new DbLookupCache(db), logger: log });
    const ports: ComputePorts = {
      wallet,
      events: { append: appendEvent, appendTail: appendEventTail },
      artifacts: jobArtifactsFrom(artifacts),
      models: models.jobPort(),
      workflows: workflowEngine,
      pdb,
      requests: failedRequestRefunds,
    };
    workflowEngine.attach(ports);
    return {
      workflowEngine,
      jobs: new JobService(db, queue, ports, config.runtimeGraceSec, chem),
      runtime: (slots, opts = {}) =>
        new JobRuntime(db, queue, ports, {
          staleAfterMs: config.jobStaleAfterSec * 1000,
          runtimeGraceSec: config.runtimeGraceSec,
          ...opts,
          slots,
          deps: { chem, models: ports.models, pdb, cacheDir: path.join(config.dataDir, 'cache') },
          scheduler,
        }),
    };
  },
  schemas: JOB_SCHEMAS,
  routes: jobRoutes,
};
