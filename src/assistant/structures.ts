// The structures an engine job of the builtin model runs on (calculations.ts, docking.ts):
// names the request gave that the catalog lacks are looked up in PubChem first
// (lookup_compounds); "my library" is one of the caller's molecule sets, picked from the
// list_artifacts answer by library.ts (or a question); otherwise the molecules the request names,
// in the order it names them, each once, at most 20. Each call gives the next tool call, the
// answer to give instead, or the job's input and how to name it.
import type { MentionedMolecule, UnknownName } from './compounds.js';
import { chooseLibrary } from './library.js';
import { call, clip, errorText, lookedUp, lookupNote, say, toolError, type Args, type Done, type Step } from './steps.js';

export interface StructureRequest {
  request: string;
  molecules: MentionedMolecule[];
  unknown: UnknownName[];
  /** An artifact id given, or "mine" for "my library". */
  library: string | null;
}

export type Structures =
  /** `input`: input_artifact_id or molecules; `on`: what they are, for the answer; `note`: what the look-ups found, or "". */
  { kind: 'input'; input: Args; on: string; note: string } | { kind: 'step'; step: Step };

/** "aspirin, caffeine and 3 more". */
export function moleculeNames(molecules: readonly MentionedMolecule[]): string {
  const shown = molecules.slice(0, 3).map((m) => clip(m.label, 40));
  const rest = molecules.length - shown.length;
  return rest > 0 ? `${shown.join(', ')} and ${rest} more` : shown.length < 2 ? shown.join('') : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
}

/**
 * The structures of `intent` (see the file comment). `pick.example` and `pick.what` word the
 * question of library.ts; `none` is the answer when no molecule is left.
 */
export function structuresOf(intent: StructureRequest, done: Done[], pick: { example: string; what: string; none: string }): Structures {
  const lookup = intent.unknown.length ? done.find((d) => d.name === 'lookup_compounds') : undefined;
  if (intent.unknown.length && !lookup) return { kind: 'step', step: call('lookup_compounds', { names: intent.unknown.map((u) => u.name) }) };
  const note = lookup ? `${lookupNote(intent, lookup)}\n\n` : '';
  if (intent.library) {
    if (intent.library !== 'mine') return { kind: 'input', input: { input_artifact_id: intent.library }, on: `artifact ${intent.library}`, note };
    const listed = done.findLast((d) => d.name === 'list_artifacts');
    if (!listed) return { kind: 'step', step: call('list_artifacts', { kind: 'molecules', limit: 50 }) };
    const err = toolError(listed.result);
    if (err) return { kind: 'step', step: say(errorText(listed, err)) };
    const picked = chooseLibrary(intent.request, listed.result, pick.example, pick.what);
    if (picked.kind === 'ask') return { kind: 'step', step: say(picked.text) };
    return { kind: 'input', input: { input_artifact_id: picked.artifact_id }, on: picked.name, note };
  }
  const seen = new Set<string>();
  const molecules = [...intent.molecules, ...lookedUp(intent, lookup)]
    .sort((a, b) => a.at - b.at)
    .filter((m) => !seen.has(m.smiles) && seen.add(m.smiles))
    .slice(0, 20);
  if (!molecules.length) return { kind: 'step', step: say(`${note}${pick.none}`.trim()) };
  return { kind: 'input', input: { molecules: molecules.map((m) => m.smiles) }, on: moleculeNames(molecules), note };
}
