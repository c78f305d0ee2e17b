// The one rule for record ids (docs/artifacts.md, "Molecule files"): what a molecule-set upload, an
// archive's manifest and a job's result ports may carry as a record's id, and how a job derives
// an id from another (a conformer `<id>-<rank>`, a repeated id `<id>~2`) without passing it.
// Lengths are counted as JavaScript counts them (UTF-16 code units: a character outside the
// Basic Multilingual Plane, like most emoji, counts 2), which is how every writer checks them.
import crypto from 'node:crypto';

/** The longest record id, in UTF-16 code units. */
export const MAX_RECORD_ID = 200;

/** C0 and C1 controls and DEL (they break the SDF title line, CSV and TSV rows, log lines). */
const CONTROL = /\p{Cc}/u;
/** A surrogate without its partner (PostgreSQL's jsonb refuses it). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why `id` is not a usable record id, or null. */
export function recordIdProblem(id: unknown): string | null {
  if (typeof id !== 'string') return 'a record id must be a string';
  if (id.length === 0) return 'a record id must not be empty';
  if (id.length > MAX_RECORD_ID) {
    const points = [...id].length;
    const counted =
      points === id.length ? '' : ` (${points} characters, counted as ${id.length} UTF-16 code units: a character outside the Basic Multilingual Plane, like most emoji, counts 2)`;
    return `the id is ${id.length} characters long${counted}; a record id has 1 to ${MAX_RECORD_ID}`;
  }
  const control = CONTROL.exec(id);
  if (control)
    return `the id holds the control character U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} at position ${control.index + 1}; record ids hold no control characters`;
  const lone = LONE_SURROGATE.exec(id);
  if (lone) return `the id holds an unpaired surrogate at position ${lone.index + 1}; record ids must be valid Unicode text`;
  return null;
}

/** The first `n` code units of `s`, never ending in half of a surrogate pair. */
function head(s: string, n: number): string {
  const h = s.slice(0, Math.max(0, n));
  return /[\ud800-\udbff]$/.test(h) ? h.slice(0, -1) : h;
}

/**
 * `base` + `suffix` as a record id: as it is when it fits; otherwise `base` is cut and a tag
 * of its SHA-256 (`~` and 8 hex digits) put before the suffix, so that ids derived from
 * different bases stay different and the same base always gives the same id.
 */
export function suffixedRecordId(base: string, suffix: string): string {
  if (base.length + suffix.length <= MAX_RECORD_ID) return base + suffix;
  const tag = `~${crypto.createHash('sha256').update(base).digest('hex').slice(0, 8)}`;
  return head(base, MAX_RECORD_ID - tag.length - suffix.length) + tag + suffix;
}

/** An id from before the rule (an upload that passed 200 code units), made to fit as suffixedRecordId does. */
export function fitRecordId(id: string): string {
  return id.length <= MAX_RECORD_ID ? id : suffixedRecordId(id, '');
}
