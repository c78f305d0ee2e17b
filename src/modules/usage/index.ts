// Usage: the monthly allowance of utility and inference calls (counted by the modules that
// serve those calls, through UsageService.consume) and GET /usage.
import type { Module } from '../../api/module.js';
import { usageRoutes } from './routes.js';
import { UsageResponse } from './schemas.js';
import { UsageService } from './service.js';

declare module '../../services.js' {
  interface Services {
    usage: UsageService;
  }
}

export const usageModule: Module = {
  name: 'usage',
  provide: ({ db, config, keys, artifacts }) => ({ usage: new UsageService(db, config, { keys, artifacts }) }),
  schemas: [UsageResponse],
  routes: usageRoutes,
};
