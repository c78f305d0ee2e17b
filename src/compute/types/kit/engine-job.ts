// What every engine job type is besides its own work (docs/engines.md): it runs its engines as
// processes (`runsOn: process`), takes structures inline (`molecules`) or as an uploaded molecule
// set, and needs a fixed set of engines or those of its QM method (xtb or MOPAC, with Open Babel).
import type { EngineName } from '../../../engines/catalog.js';
import type { JobType, PortType } from '../../job-type.js';
import { moleculePorts } from '../molecule-jobs.js';
import { ENGINE_SETS, enginesForMethod, type QmPayload } from './payload.js';
import { methodOf } from './qm.js';

/** The engines a job needs by its payload, among the sets it may need (the lanes its jobs travel in). */
export interface PayloadEngines<P> {
  sets: EngineName[][];
  of: (p: P) => EngineName[];
}

/**
 * An engine job type giving `outputs`, needing `engines`, or with 'method' the engines of its
 * payload's QM method, or those its payload picks among a few sets (docking's pose checks).
 */
export function engineJob<P>(
  name: string,
  outputs: Record<string, PortType>,
  engines: EngineName[] | 'method' | PayloadEngines<P>,
  def: Omit<JobType<P>, 'name' | 'ports' | 'runsOn' | 'engines' | 'engineSets'>,
): JobType<P> {
  const needs =
    engines === 'method'
      ? { engines: (p: P) => enginesForMethod(methodOf(p as QmPayload)), engineSets: ENGINE_SETS }
      : Array.isArray(engines)
        ? { engines: () => [...engines], engineSets: [[...engines]] }
        : { engines: engines.of, engineSets: engines.sets };
  return { ...def, name, ports: moleculePorts(outputs, 'molecules'), runsOn: 'process', ...needs };
}
