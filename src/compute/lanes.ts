// Lanes (docs/engines.md): the engines a job needs decide which queue carries it, so that a
// worker fetches only what it can run. The lane of an RDKit job is '' (the default queue); an
// engine job's lane is its engines joined by '-', e.g. 'obabel-xtb'.
import type { EngineName } from '../engines/catalog.js';
import type { Engines } from '../engines/discovery.js';
import { RUNNABLE_TYPES } from './registry.js';

export const DEFAULT_LANE = '';

function laneName(engines: readonly EngineName[]): string {
  return [...new Set(engines)].sort().join('-');
}

/** The engines a job of `type` with `payload` needs (none for RDKit types and unknown types). */
export function enginesOf(type: string, payload: unknown): EngineName[] {
  const t = RUNNABLE_TYPES.get(type);
  return t?.engines ? [...new Set(t.engines(payload))].sort() : [];
}

export function laneOf(type: string, payload: unknown): string {
  return laneName(enginesOf(type, payload));
}

/** Every lane a registered type can put a job in (each a pg-boss queue). */
export function allLanes(): string[] {
  const lanes = new Set<string>([DEFAULT_LANE]);
  for (const t of RUNNABLE_TYPES.values()) for (const set of t.engineSets ?? []) lanes.add(laneName(set));
  return [...lanes];
}

/** The lanes a worker that found `engines` serves. */
export function lanesFor(engines: Engines): string[] {
  return allLanes().filter((lane) => lane === DEFAULT_LANE || lane.split('-').every((e) => engines[e as EngineName]?.available));
}
