// Which molecule set a request means when it gives no artifact id ("plan a solubility screen of
// my library"; docs/assistant.md, "Which molecule set"), from the list_artifacts answer (data:
// it only ever picks one of the caller's own molecule sets, by the rules below, or asks).
//
//   1. A set the request names: its name ("kinase.smi", or "kinase" for a name with an
//      extension) appears in the request. Several named: uploads first; one name, the newest.
//   2. "latest" / "newest" / "last" / "most recent": the newest upload (else the newest set).
//   3. Otherwise the user's uploads: one (or several under one name: re-uploads of one file) is
//      the library, the newest of them. Several with different names: ambiguous, ask.
//   4. No upload: the sets jobs and workflow runs wrote are not "my library": ask which, or
//      say to upload one; nothing at all: say to upload one.
// A question lists the candidates by name (newest first) and says how to choose.
import type { ListedArtifact } from './tool-specs.js';

export type LibraryChoice = { kind: 'pick'; artifact_id: string; name: string } | { kind: 'ask'; text: string };

interface Candidate {
  artifact_id: string;
  name: string;
  upload: boolean;
  molecules: number | null;
  time: number;
  created_at: string;
}

const MAX_LISTED = 10;
const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
/** A short, single-line quotation of a text found in a tool answer. */
const clip = (x: unknown, n: number): string => {
  const s = String(x)
    .replace(/[\p{Cc}\s]+/gu, ' ')
    .trim();
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
};
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Whether `text` holds `phrase` as a whole (no letter or digit right before or after it). */
const holds = (text: string, phrase: string) => phrase.length >= 3 && new RegExp(`(?<![\\p{L}\\p{N}])${escape(phrase)}(?![\\p{L}\\p{N}])`, 'iu').test(text);
/** The words of a request that say what to do, not which set ("a solubility screen of"): a set called "screen.smi" is named only in full. */
const COMMAND_WORDS =
  /\b(?:plan|propose|proposal|prepare|set up|setup|schedule|estimate|estimated|cost|costs|price|quote|how much|how long|runtime|run|launch|start|queue|triage|solubility|screen|esol|similarity|expansion|neighbou?rs|analogu?es)\b/gi;

function candidates(listed: unknown): Candidate[] {
  const rows = isObj(listed) && Array.isArray(listed.artifacts) ? listed.artifacts.filter(isObj) : [];
  const seen = new Set<string>();
  const out: Candidate[] = [];
  for (const a of rows as Partial<Record<keyof ListedArtifact, unknown>>[]) {
    if (typeof a.artifact_id !== 'string' || !/^[\w-]{1,100}$/.test(a.artifact_id) || seen.has(a.artifact_id)) continue;
    if (!(/molecule/i.test(String(a.kind)) || (typeof a.molecules === 'number' && a.molecules > 0))) continue;
    seen.add(a.artifact_id);
    out.push({
      artifact_id: a.artifact_id,
      name: clip(typeof a.name === 'string' && a.name.trim() ? a.name : a.artifact_id, 80),
      upload: a.origin === 'upload',
      molecules: typeof a.molecules === 'number' && Number.isFinite(a.molecules) ? a.molecules : null,
      time: Date.parse(String(a.created_at)) || 0,
      created_at: clip(a.created_at ?? '', 40),
    });
  }
  // Newest first (the list is, but a model's answer need not be).
  return out.sort((x, y) => y.time - x.time);
}

/** The sets whose name the request mentions: in full anywhere, or without its extension outside the command words. */
function named(request: string, sets: Candidate[]): Candidate[] {
  const rest = request.replace(COMMAND_WORDS, ' ');
  return sets.filter((c) => {
    const name = c.name.toLowerCase();
    if (holds(request, name)) return true;
    const stem = name.replace(/\.[a-z0-9]{1,5}$/i, '').trim();
    return stem !== name && holds(rest, stem);
  });
}

const sameName = (sets: Candidate[]) => new Set(sets.map((c) => c.name.toLowerCase())).size === 1;
const pick = (c: Candidate): LibraryChoice => ({ kind: 'pick', artifact_id: c.artifact_id, name: c.name });

function question(intro: string, sets: Candidate[], example: string): LibraryChoice {
  const lines = sets.slice(0, MAX_LISTED).map((c) => {
    const n = c.molecules === null ? '' : `, ${c.molecules} molecule${c.molecules === 1 ? '' : 's'}`;
    return `- "${c.name}" (artifact ${c.artifact_id}${n}${c.created_at ? `, created ${c.created_at}` : ''})`;
  });
  if (sets.length > MAX_LISTED) lines.push(`(and ${sets.length - MAX_LISTED} more)`);
  const first = sets[0]!;
  return {
    kind: 'ask',
    text: `${intro}\n${lines.join('\n')}\nWhich one should I use? Say, for example, "${example} ${first.name}" or "${example} artifact ${first.artifact_id}".`,
  };
}

/**
 * The molecule set for a workflow on "my library": the one picked, or a question (ask) that
 * lists the candidates. `example` begins a request that names a set ("plan a solubility screen of").
 */
export function chooseLibrary(request: string, listed: unknown, example: string, what: string): LibraryChoice {
  const sets = candidates(listed);
  const uploads = sets.filter((c) => c.upload);
  if (!sets.length) return { kind: 'ask', text: `You have no molecule set to run ${what} on. Upload one (a SMILES or SDF file) first, then ask me again.` };

  const hits = named(request, sets);
  if (hits.length) {
    const preferred = hits.some((c) => c.upload) ? hits.filter((c) => c.upload) : hits;
    if (preferred.length === 1 || sameName(preferred)) return pick(preferred[0]!);
    return question('Several of your molecule sets have that name, newest first:', preferred, example);
  }
  if (/\b(latest|newest|last|most recent)\b/i.test(request)) return pick(uploads[0] ?? sets[0]!);
  if (uploads.length && sameName(uploads)) return pick(uploads[0]!);
  if (uploads.length) return question('You have uploaded several molecule sets, newest first:', uploads, example);
  return question(
    'You have uploaded no molecule set; these were written by your jobs and workflow runs, newest first (or upload your library, a SMILES or SDF file):',
    sets,
    example,
  );
}
