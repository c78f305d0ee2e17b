// The builtin Assistant model's vocabulary (docs/assistant.md, "Providers"): a step (text and
// tool calls), a tool call of this turn with its answer, and how answers quote tool results
// (short, single-line clips of data, never instructions). Shared by builtin.ts and the engine
// job requests (calculations.ts).
import { COMPOUNDS, type MentionedMolecule, type UnknownName } from './compounds.js';
import type { WorkflowQuote } from './tool-specs.js';

export type Args = Record<string, unknown>;
export interface PlannedCall {
  name: string;
  args: Args;
}
export interface Step {
  text: string;
  calls: PlannedCall[];
}
/** A tool call of this turn with its parsed answer. */
export interface Done {
  name: string;
  args: Args;
  result: unknown;
}

export const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
export const objs = (x: unknown): Record<string, unknown>[] => (Array.isArray(x) ? x.filter(isObj) : []);
/** A short, single-line quotation of a text found in a tool answer. */
export const clip = (x: unknown, n: number): string => {
  const s = String(x)
    .replace(/[\p{Cc}\s]+/gu, ' ')
    .trim();
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
};
export const fixed = (x: unknown, digits: number) => (typeof x === 'number' && Number.isFinite(x) ? x.toFixed(digits) : 'n/a');
export const usd = (x: unknown) => (typeof x !== 'number' || !Number.isFinite(x) ? 'n/a' : `$${x > 0 && x < 0.01 ? x.toFixed(4) : x.toFixed(2)}`);
export const duration = (x: unknown) => {
  if (typeof x !== 'number' || !Number.isFinite(x)) return 'an unknown time';
  if (x < 90) return `about ${Math.round(x)} s`;
  return x < 5400 ? `about ${Math.round(x / 60)} min` : `about ${(x / 3600).toFixed(1)} h`;
};
export const plural = (n: number, word: string) => `${n} ${n === 1 ? word : word.endsWith('y') ? `${word.slice(0, -1)}ies` : `${word}s`}`;
export const toolError = (x: unknown): string | null =>
  isObj(x) && isObj(x.error) ? `${clip(typeof x.error.code === 'string' ? x.error.code : 'error', 40)}: ${clip(x.error.message ?? '', 200)}` : null;
export const errorText = (d: Done, err: string) => `The ${d.name} tool answered an error (${err}).`;

export const say = (text: string): Step => ({ text, calls: [] });
export const call = (name: string, args: Args): Step => ({ text: '', calls: [{ name, args }] });

export function quoteLines(q: Partial<WorkflowQuote>): string[] {
  return objs(q.steps).map((s) => `- ${clip(s.step_id, 40)} (${clip(s.job_type, 40)}): ${usd(s.cost_usd)}, ${duration(s.expected_runtime_sec)}`);
}

export const andList = (names: string[]) => (names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`);

/** The molecules lookup_compounds found for the request's unknown names: a SMILES (data) of at most 500 characters, without spaces. */
export function lookedUp(intent: { unknown: readonly UnknownName[] }, lookup: Done | undefined): MentionedMolecule[] {
  const items = lookup && !toolError(lookup.result) ? objs((lookup.result as Record<string, unknown>).compounds) : [];
  return intent.unknown.flatMap((u) => {
    const item = items.find((i) => typeof i.name === 'string' && i.name.toLowerCase() === u.name.toLowerCase());
    return item?.status === 'found' && typeof item.smiles === 'string' && /^\S{1,500}$/.test(item.smiles) ? [{ at: u.at, label: u.name, smiles: item.smiles }] : [];
  });
}

/** What the name lookup gave: the compounds found (CID, title), those not found, the source; or that lookups are disabled. */
export function lookupNote(intent: { unknown: readonly UnknownName[] }, d: Done): string {
  const names = intent.unknown.map((u) => clip(u.name, 60));
  const r = d.result as Record<string, unknown>;
  if (isObj(r.error) && r.error.code === 'source-disabled') {
    const some = COMPOUNDS.slice(0, 6).map((c) => c.name);
    return (
      `Compound name lookups (PubChem) are disabled on this server, so I could not look up ${andList(names)}. ` +
      `I know ${COMPOUNDS.length} common compounds by name (${some.join(', ')}, ...); for any other, give its SMILES, e.g. "describe CCO".`
    );
  }
  const err = toolError(r);
  if (err) return `I could not look up ${andList(names)} in PubChem (${err}).`;
  const items = objs(r.compounds);
  const found: string[] = [];
  const missing: string[] = [];
  const failed: string[] = [];
  for (const u of intent.unknown) {
    const i = items.find((x) => typeof x.name === 'string' && x.name.toLowerCase() === u.name.toLowerCase());
    const name = clip(u.name, 60);
    if (i?.status === 'found' && typeof i.smiles === 'string') found.push(`${name} (CID ${clip(i.cid, 20)}${i.title ? `, "${clip(i.title, 60)}"` : ''})`);
    else if (!i || i.status === 'not_found') missing.push(name);
    else failed.push(`${name} (${clip(i.status, 40)})`);
  }
  const lines = [
    ...(found.length ? [`Looked up by name in PubChem: ${found.join(', ')}.`] : []),
    ...(missing.length ? [`Not found in PubChem: ${andList(missing)}. Check the spelling, or give a SMILES.`] : []),
    ...(failed.length ? [`Could not look up: ${failed.join(', ')}.`] : []),
  ];
  if (typeof r.attribution === 'string') lines.push(`Source: ${clip(r.attribution, 200)}`);
  return lines.join('\n');
}
