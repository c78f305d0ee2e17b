// Utilities: everyday cheminformatics tools (convert, fingerprints, similarity, substructure,
// MCS, R-groups) computed with RDKit in the chemistry pool, synchronously or as asynchronous
// requests on the job runtime, counted against the monthly allowance (docs/utilities.md).
import type { Module } from '../../api/module.js';
import { utilityRoutes } from './routes.js';
import { UTILITY_SCHEMAS } from './schemas.js';
import { UtilityService } from './service.js';

declare module '../../services.js' {
  interface Services {
    utilities: UtilityService;
  }
}

export const utilitiesModule: Module = {
  name: 'utilities',
  provide: ({ db, chem, jobs, usage, artifacts }) => ({ utilities: new UtilityService(db, { chem, jobs, usage, artifacts }) }),
  schemas: UTILITY_SCHEMAS,
  routes: utilityRoutes,
};
