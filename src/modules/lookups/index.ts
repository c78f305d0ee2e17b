// Science lookups (src/lookups/) over HTTP, with the database response cache.
import type { Module } from '../../api/module.js';
import { LookupService } from '../../lookups/index.js';
import { DbLookupCache } from './cache.js';
import { LOOKUP_SCHEMAS, lookupRoutes } from './routes.js';

declare module '../../services.js' {
  interface Services {
    lookups: LookupService;
  }
}

export const lookupsModule: Module = {
  name: 'lookups',
  provide: ({ db, config, log }) => ({ lookups: new LookupService({ urls: config.lookups.urls, disabled: config.lookups.disabled, cache: new DbLookupCache(db), logger: log }) }),
  schemas: LOOKUP_SCHEMAS,
  routes: lookupRoutes,
};
