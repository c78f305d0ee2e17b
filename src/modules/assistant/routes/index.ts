// The Assistant over HTTP (docs/assistant.md): 15 endpoints, one file each, access token only
// (an API key gets 403 api-key-management-forbidden). Approving a plan card charges the wallet
// and needs an Idempotency-Key from every caller. Registered in this order.
import { routeSequence } from '../../../api/module.js';
import { approveAssistantPlan } from './approve-assistant-plan.js';
import { createAssistantSession } from './create-assistant-session.js';
import { deleteAssistantSession } from './delete-assistant-session.js';
import { estimateAssistantTurn } from './estimate-assistant-turn.js';
import { getAssistantPlan } from './get-assistant-plan.js';
import { getAssistantSession } from './get-assistant-session.js';
import { getAssistantTurn } from './get-assistant-turn.js';
import { listAssistantModels } from './list-assistant-models.js';
import { listAssistantSessions } from './list-assistant-sessions.js';
import { listAssistantTurns } from './list-assistant-turns.js';
import { rejectAssistantPlan } from './reject-assistant-plan.js';
import { renameAssistantSession } from './rename-assistant-session.js';
import { startAssistantTurn } from './start-assistant-turn.js';
import { stopAssistantTurn } from './stop-assistant-turn.js';
import { streamAssistantTurn } from './stream-assistant-turn.js';

export const assistantRoutes = routeSequence(
  createAssistantSession,
  listAssistantSessions,
  getAssistantSession,
  renameAssistantSession,
  deleteAssistantSession,
  estimateAssistantTurn,
  startAssistantTurn,
  streamAssistantTurn,
  getAssistantTurn,
  listAssistantTurns,
  stopAssistantTurn,
  getAssistantPlan,
  approveAssistantPlan,
  rejectAssistantPlan,
  listAssistantModels,
);
