// Artifacts: uploads, archives, downloads (with Range), quotas, and the orphan sweep.
import type { Module } from '../../api/module.js';
import { openArtifactStorage } from '../../storage/open.js';
import { ARTIFACT_SCHEMAS, artifactRoutes } from './routes.js';
import { ArtifactService } from './service.js';

declare module '../../services.js' {
  interface Services {
    artifacts: ArtifactService;
  }
}

export const artifactsModule: Module = {
  name: 'artifacts',
  provide: ({ db, config, log }) => ({ artifacts: new ArtifactService({ db, config, storage: openArtifactStorage(config, db), log }) }),
  schemas: ARTIFACT_SCHEMAS,
  routes: artifactRoutes,
  tasks: (s) => [s.artifacts.sweepTask()],
  stop: async (s) => s.artifacts.storage.close?.(),
};
