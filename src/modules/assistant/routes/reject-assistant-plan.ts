// POST /assistant/plans/:plan_id/reject (docs/assistant.md, "Endpoints").
import { ok } from '../../../api/declare-route.js';
import { Plan, PlanParams } from '../schemas.js';
import { route, user } from './shared.js';

export const rejectAssistantPlan = route('POST /assistant/plans/:plan_id/reject', 'rejectAssistantPlan', {
  summary: 'Reject a plan card (409 when it expired or was decided)',
  params: PlanParams,
  response: ok(Plan, 'The plan card, rejected'),
  handler: async ({ assistant }, request) => assistant.rejectPlan(user(request), request.params.plan_id),
});
