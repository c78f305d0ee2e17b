// GET /assistant/sessions/:session_id/turns/:turn_id (docs/assistant.md, "Endpoints").
import { ok } from '../../../api/declare-route.js';
import { TurnParams } from '../schemas.js';
import { route, user } from './shared.js';

export const getAssistantTurn = route('GET /assistant/sessions/:session_id/turns/:turn_id', 'getAssistantTurn', {
  summary: 'A turn: status, tokens, cost',
  params: TurnParams,
  response: ok('AssistantTurn', 'The turn: status, tokens and cost'),
  handler: async ({ assistant }, request) => assistant.getTurn(user(request), request.params.session_id, request.params.turn_id),
});
