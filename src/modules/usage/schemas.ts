// GET /usage (docs/usage.md).
import { Type } from '@sinclair/typebox';
import { Nullable } from '../../api/schemas.js';

const Count = Type.Integer({ minimum: 0 });
/** A kind of paid work this month, from the ledger (a deleted job, run or session keeps its charge). */
const Paid = (description: string) => Type.Object({ count: Count, charged_usd: Type.Number({ minimum: 0 }) }, { additionalProperties: false, description });

export const UsageResponse = Type.Object(
  {
    period: Type.Object(
      {
        start: Type.String({ format: 'date-time', description: 'First instant of the calendar month (UTC)' }),
        end: Type.String({ format: 'date-time', description: 'First instant of the next month' }),
        resets_at: Type.String({ format: 'date-time', description: 'When the monthly allowance starts again (= end)' }),
      },
      { additionalProperties: false },
    ),
    tier: Type.Integer(),
    tier_name: Type.String(),
    calls: Type.Object(
      {
        utilities: Count,
        inference: Count,
        total: Count,
        allowance: Nullable(Count, { description: 'Utility and inference calls a month; null: unlimited' }),
        remaining: Nullable(Count, { description: 'null: unlimited' }),
      },
      { additionalProperties: false, description: 'Utility and inference calls this month (a synchronous call counts 1, an asynchronous request ceil(molecules / 100))' },
    ),
    all_time: Type.Object({ utilities: Count, inference: Count, total: Count }, { additionalProperties: false }),
    storage: Type.Object({ used_bytes: Count, quota_bytes: Count, artifact_count: Count }, { additionalProperties: false, description: 'As GET /artifacts/usage' }),
    keys: Type.Object({ used: Count, limit: Count }, { additionalProperties: false, description: 'API keys, as GET /auth/api-keys' }),
    jobs: Paid('Standalone jobs submitted this month and what jobs were charged this month (workflow steps count under workflow_runs)'),
    workflow_runs: Paid('Workflow runs started this month and what their steps were charged this month'),
    assistant_turns: Paid('Assistant turns started this month and what turns were charged this month'),
  },
  { $id: 'UsageResponse', additionalProperties: false },
);
