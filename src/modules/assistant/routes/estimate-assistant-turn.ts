// POST /assistant/sessions/:session_id/turns/estimate (docs/assistant.md, "Endpoints").
import { Type } from '@sinclair/typebox';
import { ok } from '../../../api/declare-route.js';
import { SessionParams } from '../schemas.js';
import { route, user } from './shared.js';

export const estimateAssistantTurn = route('POST /assistant/sessions/:session_id/turns/estimate', 'estimateAssistantTurn', {
  config: { scope: 'read' },
  summary: 'Charges nothing: the token bounds of a turn with this message and the hold in USD',
  params: SessionParams,
  body: Type.Ref('AssistantTurnRequest'),
  response: ok('AssistantTurnEstimate', 'The token bounds of a turn and the hold in USD'),
  handler: async ({ assistant }, request) => assistant.estimateTurn(user(request), request.params.session_id, (request.body as { message: string }).message),
});
