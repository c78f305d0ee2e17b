// GET /engines (docs/engines.md).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Services } from '../../services.js';
import { EngineList } from './schemas.js';

export const engineRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.get(
    '/engines',
    {
      config: { scope: 'read' },
      schema: {
        operationId: 'listEngines',
        tags: ['engines'],
        summary: "The compute engines (xtb, MOPAC, Open Babel, AutoDock Vina): which this server's workers found, their versions, and the job types they run",
        response: { 200: Type.Ref(EngineList, { description: "The engines and the job types this server's workers can run" }) },
      },
    },
    async () => services.engines.list(),
  );
};
