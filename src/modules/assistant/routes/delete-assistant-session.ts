// DELETE /assistant/sessions/:session_id (docs/assistant.md, "Endpoints").
import { ok } from '../../../api/declare-route.js';
import { SessionParams } from '../schemas.js';
import { route, user } from './shared.js';

export const deleteAssistantSession = route('DELETE /assistant/sessions/:session_id', 'deleteAssistantSession', {
  summary: 'Delete a session with its turns and plan cards (409 while a turn runs); runs started from its cards stay',
  params: SessionParams,
  response: ok('MessageResponse', 'The session is deleted'),
  handler: async ({ assistant }, request) => {
    await assistant.deleteSession(user(request), request.params.session_id);
    return { message: `assistant session ${request.params.session_id} deleted` };
  },
});
