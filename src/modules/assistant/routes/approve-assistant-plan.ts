// POST /assistant/plans/:plan_id/approve (docs/assistant.md, "Endpoints").
import { created } from '../../../api/declare-route.js';
import { pinReply, principalOf } from '../../../api/route.js';
import { Approval, PlanParams } from '../schemas.js';
import { route } from './shared.js';

export const approveAssistantPlan = route('POST /assistant/plans/:plan_id/approve', 'approveAssistantPlan', {
  config: { idempotency: 'always' },
  summary: 'Start the proposed workflow run: charges your wallet (reserves its estimate). Idempotency-Key required from every caller; 409 when the card expired or was decided',
  params: PlanParams,
  response: created(Approval),
  handler: async ({ assistant }, request, reply) => reply.code(201).send(await assistant.approvePlan(principalOf(request), request.params.plan_id, pinReply(request, 201))),
});
