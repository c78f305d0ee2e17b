// What a feature module declares (docs/architecture.md, "Modules"): its services, built from
// those of the modules before it in src/modules/index.ts; its schemas and routes, mounted under
// /api/v1 by src/http/app.ts; its periodic tasks, run by the scheduler in serving processes;
// and how to start and stop anything else it runs. Each module augments the Services
// interface (src/services.ts) with what it provides.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { TSchema } from '@sinclair/typebox';
import type { PeriodicTask } from '../scheduler.js';
import type { Services } from '../services.js';

export type RoutePlugin = FastifyPluginAsyncTypebox<{ services: Services }>;

export interface Module {
  name: string;
  /** Builds this module's services; `deps` holds the core and every module listed before this one. */
  provide?(deps: Services): Partial<Services> | Promise<Partial<Services>>;
  /** Schemas with $id, registered once and referenced by Type.Ref. */
  schemas?: TSchema[];
  routes?: RoutePlugin;
  /** Periodic loops (sweeps, retention), run by the scheduler under their advisory lock. */
  tasks?(s: Services): PeriodicTask[];
  /** Starts what the module runs beside its routes (listeners). */
  start?(s: Services): Promise<void>;
  /** Stops what it runs and releases what it holds (connections), in reverse list order. */
  stop?(s: Services): Promise<void>;
}

/**
 * One plugin of a module's routes, one file per route (docs/architecture.md, "Recipes"): each
 * registers its route, in the order given, so the OpenAPI document lists them in that order.
 */
export function routeSequence(...routes: RoutePlugin[]): RoutePlugin {
  return async (app, opts) => {
    for (const route of routes) await route(app, opts);
  };
}
