// Drawings of molecules and reactions as SVG (RDKit, in the chemistry pool).
import type { Module } from '../../api/module.js';
import { DEPICT_SCHEMAS, depictRoutes } from './routes.js';

export const depictModule: Module = { name: 'depict', schemas: DEPICT_SCHEMAS, routes: depictRoutes };
