// Problems (application/problem+json, docs/api-decisions.md) as thrown errors, and the 422
// issues located at a form field by their `loc`.
import type { components } from '../../../clients/typescript/src/generated/openapi.ts';

export type Problem = components['schemas']['Problem'];
export type Issue = components['schemas']['ValidationIssue'];

export class ProblemError extends Error {
  readonly problem: Problem;
  constructor(problem: Problem) {
    super(problem.detail || problem.title);
    this.name = 'ProblemError';
    this.problem = problem;
  }
  get status(): number {
    return this.problem.status;
  }
  /** The slug of `type` (`/api/v1/problems/<slug>`), e.g. token-expired. */
  get slug(): string {
    return this.problem.type.split('/').pop() ?? '';
  }
}

/** A problem for failures that never reached the API (network down, a body that is not a problem). */
export function localProblem(status: number, title: string, detail: string): Problem {
  return { type: 'about:blank', title, status, detail, instance: '', request_id: '', retry: status === 0 ? 'upstream' : 'terminal' } as Problem;
}

export async function problemFrom(response: Response): Promise<Problem> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as Partial<Problem>;
    if (body && typeof body === 'object' && typeof body.title === 'string') return { ...body, status: body.status ?? response.status } as Problem;
  } catch {
    // not JSON: described below
  }
  return localProblem(response.status, `HTTP ${response.status}`, text.slice(0, 300) || response.statusText);
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
  const issues = (problem?.status === 422 ? problem.errors : undefined) ?? [];
  return issues
    .filter((i) => path.every((p, n) => i.loc[n] === p))
    .map((i) => {
      const rest = i.loc.slice(path.length);
      return rest.length ? `${rest.join('.')}: ${i.msg}` : i.msg;
    });
}

/** Issues that no field of the form shows (so the banner lists them). */
export function issuesElsewhere(problem: Problem | null, shown: (string | number)[][]): Issue[] {
  const issues = (problem?.status === 422 ? problem.errors : undefined) ?? [];
  return issues.filter((i) => !shown.some((path) => path.every((p, n) => i.loc[n] === p)));
}
