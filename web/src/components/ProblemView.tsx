// A problem shown to the user: its title and `detail` (docs/console.md, "Errors"), the 422 issues
// that no field shows, and the request id to quote to an operator.
import { issuesElsewhere, type Problem } from '../api/problem.ts';

export function ProblemView({ problem, fields = [] }: { problem: Problem | null; fields?: (string | number)[][] }) {
  if (!problem) return null;
  const rest = issuesElsewhere(problem, fields);
  // A 422 whose every issue is shown at its field: the banner points there instead of repeating it.
  const allAtFields = problem.status === 422 && (problem.errors?.length ?? 0) > 0 && rest.length === 0;
  const detail = allAtFields ? `Correct the field${problem.errors!.length > 1 ? 's' : ''} marked below.` : problem.detail;
  return (
    <div className="problem" role="alert">
      <strong>{problem.title}</strong>
      {detail && <p>{detail}</p>}
      {rest.length > 0 && (
        <ul>
          {rest.map((i, n) => (
            <li key={n}>
              <code>{i.loc.join('.')}</code>: {i.msg}
            </li>
          ))}
        </ul>
      )}
      {problem.request_id && <p className="muted small">Request {problem.request_id}</p>}
    </div>
  );
}

/** A 422's messages for one field, under it; `id` ties it to the input (aria-describedby). */
export function FieldError({ id, messages }: { id: string; messages: string[] }) {
  if (messages.length === 0) return null;
  return (
    <p className="field-error" id={id} role="alert">
      {messages.join('; ')}
    </p>
  );
}
