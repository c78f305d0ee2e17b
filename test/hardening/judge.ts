// The fuzz test's verdict on one answer (docs/reliability.md, "Fuzzing").
import type { Outcome, Wire } from './wire.js';

/** An answer slower than this is a finding (a hang), not a pass. */
export const ANSWER_TIMEOUT_MS = 30_000;
const LOC_ROOTS = new Set<unknown>(['body', 'query', 'path', 'header']);
const RETRY_HINTS = new Set(['validation', 'auth', 'quota', 'conflict', 'upstream', 'timeout', 'terminal']);

export const LEAKS: [string, RegExp][] = [
  ['stack trace', /\bat (?:async )?[\w$.<>[\] ]*\(?(?:file:\/\/|node:|\/)[^\s)'"]*:\d+:\d+\)?/],
  ['stack trace', /\b\w*Error: [^\n]*\n\s+at /],
  ['SQL', /\b(?:SELECT|INSERT INTO|UPDATE|DELETE FROM)\b[\s\S]{0,200}?\b(?:FROM|VALUES|SET|WHERE|RETURNING)\b/],
  [
    'database error',
    /syntax error at or near|out of range for type|bigint out of range|invalid input syntax for|violates [\w ]*constraint|duplicate key value|relation "[^"]+" does not exist|current transaction is aborted|invalid byte sequence for encoding|unsupported Unicode escape sequence|could not serialize access|deadlock detected/i,
  ],
  ['file path', /\/(?:work|home|Users|usr|tmp|var|opt|root|srv|app)\/[\w.@-]+/],
  // A name is matched from its first character only (the lookbehind): without it, a long run of
  // word characters in an answer (an echoed megabyte of "aaa...") costs quadratic time.
  ['file path', /node_modules|(?<![\w-])[\w-]+\.(?:ts|mjs|cjs):\d+|[A-Za-z]:\\\\?[\w]/],
];

export interface Finding {
  op: string;
  kind: string;
  note: string;
  method: string;
  path: string;
  sent: string;
  status: number;
  problem: string;
  body: string;
}

export const excerpt = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);

export function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export function judge(w: Wire, o: Outcome, extraLeaks: string[]): string[] {
  const problems: string[] = [];
  if (o.status === 0) {
    if (o.error === 'aborted' && w.truncated) return problems;
    if (o.error === 'timeout') problems.push(`no answer within ${ANSWER_TIMEOUT_MS / 1000} s`);
    // A body over the limit may be refused before it is all sent: the socket closes under it.
    else if (!(w.body && w.body.length > 1024 * 1024)) problems.push(`no answer: ${o.error ?? 'connection closed'}`);
    return problems;
  }
  // A 503 engine-unavailable is the contract's answer for an engine job no worker can run (the
  // fuzzed server runs no worker); any other 5xx is a finding.
  const engineUnavailable = o.status === 503 && /"type":"\/api\/v1\/problems\/engine-unavailable"/.test(o.body.toString('utf8'));
  if (o.status >= 500 && !engineUnavailable) problems.push(`status ${o.status}`);
  const type = String(o.headers['content-type'] ?? '');
  const textual = !type || /json|text|xml|svg/.test(type);
  const body = textual ? o.body.toString('utf8') : '';
  if (o.status >= 400 && w.method !== 'HEAD') {
    if (!/^application\/problem\+json/.test(type)) problems.push(`error is ${type || 'without a content type'}, not application/problem+json`);
    let p: any = null;
    try {
      p = JSON.parse(body);
    } catch {
      problems.push('error body is not JSON');
    }
    if (p && typeof p === 'object') {
      for (const f of ['type', 'title', 'detail', 'instance', 'request_id'] as const) if (typeof p[f] !== 'string') problems.push(`problem without ${f}`);
      if (p.status !== o.status) problems.push(`problem status ${String(p.status)} != ${o.status}`);
      if (!RETRY_HINTS.has(p.retry)) problems.push(`problem retry ${JSON.stringify(p.retry)}`);
      // An idempotent replay answers the first response verbatim, with the first request's request_id.
      if (typeof p.request_id === 'string' && o.headers['idempotent-replayed'] !== 'true' && o.headers['x-request-id'] !== p.request_id)
        problems.push('request_id differs from X-Request-Id');
      // A 422 says where: every issue's loc starts at the part of the request it is in.
      if (o.status === 422) {
        const issues: unknown[] = Array.isArray(p.errors) ? p.errors : [];
        if (!issues.length) problems.push('422 without errors[].loc');
        for (const e of issues) {
          const loc = (e as { loc?: unknown }).loc;
          if (!Array.isArray(loc) || !LOC_ROOTS.has(loc[0]) || loc[1] === loc[0]) problems.push(`422 issue loc ${JSON.stringify(loc)}`);
        }
      }
    }
  }
  if (body) {
    // What the request itself carried may come back (a 422 names the offending input): not a leak.
    const sent = `${safeDecode(w.path)}\n${w.path}\n${w.body ? w.body.toString('utf8') : ''}\n${Object.values(w.headers).join('\n')}`;
    // Judged on the decoded strings of a JSON body (a backslash the request sent comes back escaped).
    const text = decodedStrings(body);
    for (const [what, re] of LEAKS) {
      const m = re.exec(text);
      if (m && !sent.includes(m[0])) problems.push(`${what} in body: ${JSON.stringify(m[0].slice(0, 80))}`);
    }
    for (const s of extraLeaks) if (body.includes(s)) problems.push(`server path in body: ${s}`);
  }
  return problems;
}

/** The string values of a JSON text, decoded and joined by newlines; the text itself when it is not JSON. */
function decodedStrings(body: string): string {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return body;
  }
  const out: string[] = [];
  const stack: unknown[] = [value];
  for (let v = stack.pop(); v !== undefined; v = stack.pop()) {
    if (typeof v === 'string') out.push(v);
    else if (v && typeof v === 'object') stack.push(...Object.keys(v), ...Object.values(v));
  }
  return out.join('\n');
}
