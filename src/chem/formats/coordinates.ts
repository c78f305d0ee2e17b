// The coordinates of a molblock (docs/artifacts.md, "Molecule files"; docs/engines.md,
// "Structures"), checked as text before anything reads them: RDKit takes `nan`, `inf` and 1e8
// in a V3000 atom line as they are, and Open Babel and the engines then compute on them. Every
// coordinate must be a decimal number (an exponent allowed) within what a V2000 molfile can
// write, ±99,999.9999 Å. (A V2000 molblock's fixed columns are refused by RDKit and by the
// upload's shape check when they hold such values.)

/** The largest coordinate magnitude, in Å. */
export const MAX_COORDINATE = 1e5;

const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;

/** Why a coordinate's text is refused, or null. */
function coordinateProblem(text: string): string | null {
  const t = text.trim();
  if (!NUMBER.test(t)) return `${JSON.stringify(t.slice(0, 20))} is not a number`;
  const v = Number(t);
  if (!Number.isFinite(v) || Math.abs(v) >= MAX_COORDINATE) return `${t.slice(0, 20)} Å is beyond ±${MAX_COORDINATE.toLocaleString('en-US')} Å`;
  return null;
}

/** The atom lines of a V3000 connection table, continuation lines (ending in "-") joined, without "M  V30 ". */
function v3000Atoms(lines: readonly string[]): string[] {
  const out: string[] = [];
  let on = false;
  let carry = '';
  for (const raw of lines) {
    if (!raw.startsWith('M  V30 ')) continue;
    const body = raw.slice(7).replace(/\s+$/, '');
    if (/^BEGIN ATOM\b/.test(body)) on = true;
    else if (/^END ATOM\b/.test(body)) break;
    else if (on) {
      if (body.endsWith('-')) {
        carry += body.slice(0, -1);
        continue;
      }
      out.push(carry + body);
      carry = '';
    }
  }
  return out;
}

/**
 * Why a V3000 molblock's coordinates are refused (NaN, Infinity, not a number, or absurdly far),
 * naming the atom, or null. A V2000 molblock's fixed columns hold no such value that RDKit or
 * the upload's shape check would take (both refuse it); a molblock whose shape is wrong
 * otherwise is for its reader to refuse.
 */
export function molblockCoordinateProblem(molblock: string | readonly string[]): string | null {
  const lines = typeof molblock === 'string' ? molblock.replace(/\r/g, '').split('\n') : molblock;
  const counts = lines[3] ?? '';
  if (!/V3000/.test(counts)) return null;
  for (const [i, l] of v3000Atoms(lines).entries()) {
    const t = l.trim().split(/\s+/);
    for (let k = 2; k <= 4; k++) {
      const problem = coordinateProblem(t[k] ?? '');
      if (problem) return `atom ${t[0] ?? i + 1}: its ${'xyz'[k - 2]} coordinate ${problem}`;
    }
  }
  return null;
}
