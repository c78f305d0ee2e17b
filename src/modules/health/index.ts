// Liveness and readiness probes.
import type { Module } from '../../api/module.js';
import { healthRoutes } from './routes.js';

export const healthModule: Module = { name: 'health', routes: healthRoutes };
