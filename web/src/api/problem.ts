// Problems (application/problem+json, docs/api-decisions.md) as the console shows them: every
// failed call throws the SDK's ProblemError (crucible-client; its README, "Errors"); here, what a
// page shows for any failure, and the 422 issues located at a form field by their `loc`.
import { ProblemError, type Problem, type ValidationIssue } from 'crucible-client';

export type { Problem };

/** A problem for failures that never reached the API (network down) or that the page finds itself. */
export function localProblem(status: number, title: string, detail: string): Problem {
  return { type: 'about:blank', title, status, detail, instance: '', request_id: '', retry: status === 0 ? 'upstream' : 'terminal' } as Problem;
}

export function toProblem(err: unknown): Problem {
  if (err instanceof ProblemError) return err.problem;
  if (err instanceof TypeError) return localProblem(0, 'Network error', 'The server could not be reached. Check the connection and try again.');
  return localProblem(0, 'Error', err instanceof Error ? err.message : String(err));
}

/**
 * The 422 issues at a field: those whose `loc` starts with `path` (e.g. ['body', 'smiles'] also
 * takes ['body', 'smiles', 3]). Their messages, with the item index when there is one.
 */
export function issuesAt(problem: Problem | null, path: (string | number)[]): string[] {
  return issuesUnder(problem, [path]).map((i) => {
    const rest = i.loc.slice(path.length);
    return rest.length ? `${rest.join('.')}: ${i.msg}` : i.msg;
  });
}

/** Issues that no field of the form shows (so the banner lists them). */
export function issuesElsewhere(problem: Problem | null, shown: (string | number)[][]): ValidationIssue[] {
  const claimed = new Set(issuesUnder(problem, shown));
  return issuesUnder(problem, [[]]).filter((i) => !claimed.has(i));
}

/** A 422's issues whose `loc` starts with one of `paths`. */
function issuesUnder(problem: Problem | null, paths: (string | number)[][]): ValidationIssue[] {
  const issues = (problem?.status === 422 ? problem.errors : undefined) ?? [];
  return issues.filter((i) => paths.some((path) => path.every((p, n) => i.loc[n] === p)));
}
