// Artifact names (docs/artifacts.md, "Names"): what an upload is called (the `name` field, else
// its file's name) and what a job result is called (its job type and output ports), the check of
// a name a client gives, and the names of a job result's own port and record.
import type { Issue } from '../../errors.js';

/** The port and record holding the JSON document of GET /jobs/result in a job's result artifact. */
export const RESULT_PORT = 'result';
export const RESULT_RECORD = 'result';

/** The longest name, in characters (code points). */
export const MAX_ARTIFACT_NAME = 200;

/** Control characters, line and paragraph separators, and bidirectional overrides (they disguise a name). */
const CONTROL_RE = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;
const CONTROL_RE_ALL = new RegExp(CONTROL_RE.source, 'gu');

const clip = (s: string, n: number) => [...s].slice(0, n).join('');

/** The problem with a name a client gave (already trimmed; 1 or more characters), at `loc`; null when it is fine. */
export function artifactNameIssue(name: string, loc: (string | number)[]): Issue | null {
  const length = [...name].length;
  if (length > MAX_ARTIFACT_NAME) {
    return { type: 'string_too_long', loc, msg: `String should have at most ${MAX_ARTIFACT_NAME} characters (it has ${length})`, input: `${clip(name, 100)}…` };
  }
  const bad = CONTROL_RE.exec(name);
  if (bad) {
    const code = `U+${bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    return {
      type: 'value_error',
      loc,
      msg: `a name may not contain control characters (${code} at character ${[...name.slice(0, bad.index)].length + 1})`,
      input: clip(name, 100),
    };
  }
  return null;
}

/** An upload's name when the client gives none: its file's base name, without control characters; else "<mode> upload". */
export function uploadName(filename: string, mode: string): string {
  const base = filename.split(/[\\/]/).pop() ?? '';
  const name = clip(base.replace(CONTROL_RE_ALL, '').trim(), MAX_ARTIFACT_NAME).trim();
  return name || `${mode} upload`;
}

/** A job result's name: its job type and its ports other than `result` ("filter: molecules"), else "<job type> result". */
export function resultName(jobType: string, ports: string[]): string {
  const own = ports.filter((p) => p !== RESULT_PORT).sort();
  return clip(own.length ? `${jobType}: ${own.join(', ')}` : `${jobType} result`, MAX_ARTIFACT_NAME);
}
