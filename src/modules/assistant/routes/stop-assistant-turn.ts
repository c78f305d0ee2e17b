// POST /assistant/sessions/:session_id/turns/:turn_id/stop (docs/assistant.md, "Endpoints").
import { ok } from '../../../api/declare-route.js';
import { TurnParams } from '../schemas.js';
import { route, user } from './shared.js';

export const stopAssistantTurn = route('POST /assistant/sessions/:session_id/turns/:turn_id/stop', 'stopAssistantTurn', {
  summary: 'Stop generating: debits the tokens used, releases the rest of the hold (409 when the turn has ended)',
  params: TurnParams,
  response: ok('AssistantTurn', 'The turn, stopped: the tokens used are debited, the rest released'),
  handler: async ({ assistant }, request) => assistant.stopTurn(user(request), request.params.session_id, request.params.turn_id),
});
