// Inference: predictions with public models and users' MPNN models (docs/models.md), in
// inference threads of their own, counted against the monthly allowance.
import type { Module } from '../../api/module.js';
import { InferencePool } from '../../ml/inference-pool.js';
import { inferenceRoutes } from './routes.js';
import { INFERENCE_SCHEMAS } from './schemas.js';
import { InferenceService } from './service.js';

declare module '../../services.js' {
  interface Services {
    inference: InferenceService;
  }
}

export const inferenceModule: Module = {
  name: 'inference',
  provide: (s) => ({ inference: new InferenceService(s.db, { models: s.models, jobs: s.jobs, usage: s.usage, artifacts: s.artifacts, pool: new InferencePool(1) }) }),
  schemas: INFERENCE_SCHEMAS,
  routes: inferenceRoutes,
  stop: (s) => s.inference.close(),
};
