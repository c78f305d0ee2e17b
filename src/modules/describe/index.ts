// Molecular properties of up to 20 molecules per request (RDKit, in the chemistry pool).
import type { Module } from '../../api/module.js';
import { DESCRIBE_SCHEMAS, describeRoutes } from './routes.js';

export const describeModule: Module = { name: 'describe', schemas: DESCRIBE_SCHEMAS, routes: describeRoutes };
