// GET /assistant/sessions/:session_id/turns/:turn_id/stream (docs/assistant.md, "Endpoints").
import { Type } from '@sinclair/typebox';
import type { RoutePlugin } from '../../../api/module.js';
import { invalid } from '../../../errors.js';
import { STREAM_DESCRIPTION, TurnParams } from '../schemas.js';
import { resumeAfter, streamTurn } from '../stream.js';
import { tags, config, user } from './shared.js';

export const streamAssistantTurn: RoutePlugin = async (app, { services }) => {
  const a = services.assistant;
  app.get(
    '/assistant/sessions/:session_id/turns/:turn_id/stream',
    {
      // Its one checked input is a header: error locations are rooted by the service itself.
      config: { ...config, input: [] },
      // The stream writes its own frames; the schema documents them (nothing to serialize).
      serializerCompiler: () => (data: unknown) => JSON.stringify(data),
      schema: {
        operationId: 'streamAssistantTurn',
        tags,
        summary: "The turn's events as Server-Sent Events, resumable with Last-Event-ID",
        description: STREAM_DESCRIPTION,
        params: TurnParams,
        querystring: Type.Object(
          { after: Type.Optional(Type.Integer({ minimum: 0, description: 'Resume after this event (the Last-Event-ID header wins)' })) },
          { additionalProperties: false },
        ),
        produces: ['text/event-stream'],
        response: { 200: { description: STREAM_DESCRIPTION, content: { 'text/event-stream': { schema: { $ref: '#/components/schemas/AssistantStreamEvent' } } } } },
      },
    },
    async (request, reply) => {
      const after = resumeAfter(request, request.query.after);
      if (after === 'invalid')
        throw invalid(['header', 'last-event-id'], 'Last-Event-ID should be the id of an event of this turn (an integer)', request.headers['last-event-id'] ?? null);
      const turn = await a.turnRow(user(request), request.params.session_id, request.params.turn_id);
      await streamTurn(services.db, a.waiters, request, reply, turn.id, after);
    },
  );
};
