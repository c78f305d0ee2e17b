// POST /assistant/sessions/:session_id/turns (docs/assistant.md, "Endpoints").
import { Type } from '@sinclair/typebox';
import { accepted } from '../../../api/declare-route.js';
import { principalOf } from '../../../api/route.js';
import { SessionParams } from '../schemas.js';
import { route } from './shared.js';

export const startAssistantTurn = route.idempotent('POST /assistant/sessions/:session_id/turns', 'startAssistantTurn', {
  summary: 'Start a turn: holds funds for its maximum tokens (402 insufficient-funds if short; 409 while another turn of the session runs); follow it on its stream',
  params: SessionParams,
  body: Type.Ref('AssistantTurnRequest'),
  response: accepted('AssistantTurnStarted', 'The turn is started: stream it by its turn_id'),
  handler: async ({ assistant }, request, reply) =>
    reply.code(202).send(await assistant.startTurn(principalOf(request), request.params.session_id, (request.body as { message: string }).message, String(request.id))),
});
