// GET /engines (docs/engines.md).
import { ok, routeFactory } from '../../api/declare-route.js';
import { EngineList } from './schemas.js';

const route = routeFactory({ tags: ['engines'] });

export const engineRoutes = route('GET /engines', 'listEngines', {
  config: { scope: 'read' },
  summary: "The compute engines (xtb, MOPAC, Open Babel, AutoDock Vina, Psi4, NWChem): which this server's workers found, their versions, and the job types they run",
  response: ok(EngineList, "The engines and the job types this server's workers can run"),
  handler: async ({ engines }) => engines.list(),
});
