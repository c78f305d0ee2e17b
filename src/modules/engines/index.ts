// Compute engines: what the workers found (docs/engines.md). The engine runtime itself is
// src/engines/ (catalog, discovery, process, scratch).
import type { Module } from '../../api/module.js';
import { engineRoutes } from './routes.js';
import { ENGINES_SCHEMAS } from './schemas.js';
import { EngineService } from './service.js';

declare module '../../services.js' {
  interface Services {
    engines: EngineService;
  }
}

export const enginesModule: Module = {
  name: 'engines',
  provide: ({ db }) => ({ engines: new EngineService(db) }),
  schemas: ENGINES_SCHEMAS,
  routes: engineRoutes,
};
