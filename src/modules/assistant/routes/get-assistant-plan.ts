// GET /assistant/plans/:plan_id (docs/assistant.md, "Endpoints").
import { ok } from '../../../api/declare-route.js';
import { Plan, PlanParams } from '../schemas.js';
import { route, user } from './shared.js';

export const getAssistantPlan = route('GET /assistant/plans/:plan_id', 'getAssistantPlan', {
  summary: 'A plan card: the proposed workflow run, its estimate, status and expiry',
  params: PlanParams,
  response: ok(Plan, 'The plan card'),
  handler: async ({ assistant }, request) => assistant.getPlan(user(request), request.params.plan_id),
});
