// Models: users' MPNN models (trained by `mpnn_train` jobs), the public catalog, and the model
// references inference resolves (docs/models.md). Listed before jobs in src/modules/index.ts:
// the job engine's model port (src/compute/ports.ts) is this module's service.
import type { Module } from '../../api/module.js';
import { modelRoutes } from './routes.js';
import { MODEL_SCHEMAS } from './schemas.js';
import { ModelService } from './service.js';

declare module '../../services.js' {
  interface Services {
    models: ModelService;
  }
}

export const modelsModule: Module = {
  name: 'models',
  provide: ({ db, artifacts }) => ({ models: new ModelService(db, artifacts) }),
  schemas: MODEL_SCHEMAS,
  routes: modelRoutes,
};
