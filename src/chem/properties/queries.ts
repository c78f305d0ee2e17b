// Query molecules (SMARTS) parsed once per RDKit module instance and reused for every
// molecule. They live as long as the module (a worker thread's RDKit instance); call
// releaseQueries() before dropping a module you keep running.
import type { Mol } from '@rdkit/rdkit';
import type { RDKitModule } from '../rdkit.js';
import { CATALOG_ENTRIES, QED_DATA, type Prefilter } from './data.js';

export type JSMol = Mol;

export interface CompiledQuery {
  query: JSMol;
  prefilter: Prefilter;
}

export interface CompiledFilter extends CompiledQuery {
  name: string;
  minCount: number;
  maxCount: number | null;
}

interface CompiledQueries {
  pains: CompiledFilter[];
  brenk: CompiledFilter[];
  qedAcceptors: CompiledQuery[];
  qedAlerts: CompiledQuery[];
  aliphaticRings: JSMol;
}

const cache = new WeakMap<RDKitModule, CompiledQueries>();

function qmol(rdkit: RDKitModule, smarts: string, what: string): JSMol {
  const q = rdkit.get_qmol(smarts);
  if (!q || !q.is_valid()) {
    q?.delete();
    throw new Error(`RDKit could not parse the SMARTS of ${what}: ${smarts}`);
  }
  return q;
}

/** The i-th prefilter of qed.json (one per SMARTS: the export writes them side by side). */
function prefilterOf(prefilters: readonly Prefilter[], i: number, what: string): Prefilter {
  const pf = prefilters[i];
  if (!pf) throw new Error(`qed.json has no prefilter for ${what} ${String(i)}`);
  return pf;
}

export function compiledQueries(rdkit: RDKitModule): CompiledQueries {
  const hit = cache.get(rdkit);
  if (hit) return hit;
  const made: JSMol[] = [];
  const q = (smarts: string, what: string): JSMol => {
    const m = qmol(rdkit, smarts, what);
    made.push(m);
    return m;
  };
  try {
    const filter = (family: 'pains' | 'brenk'): CompiledFilter[] =>
      CATALOG_ENTRIES.filter((e) => e.family === family).map((e) => ({
        name: e.name,
        query: q(e.smarts, `${e.catalog} entry ${e.name}`),
        prefilter: e.prefilter,
        minCount: e.min_count,
        maxCount: e.max_count,
      }));
    const compiled: CompiledQueries = {
      pains: filter('pains'),
      brenk: filter('brenk'),
      qedAcceptors: QED_DATA.acceptor_smarts.map((s, i) => ({ query: q(s, `QED acceptor ${i}`), prefilter: prefilterOf(QED_DATA.acceptor_prefilter, i, 'QED acceptor') })),
      qedAlerts: QED_DATA.structural_alert_smarts.map((s, i) => ({
        query: q(s, `QED structural alert ${i}`),
        prefilter: prefilterOf(QED_DATA.structural_alert_prefilter, i, 'QED structural alert'),
      })),
      aliphaticRings: q(QED_DATA.aliphatic_rings_smarts, 'QED aliphatic rings'),
    };
    cache.set(rdkit, compiled);
    return compiled;
  } catch (err) {
    for (const m of made) m.delete();
    throw err;
  }
}

/** Deletes the cached query molecules of this module instance (they are rebuilt on next use). */
export function releaseQueries(rdkit: RDKitModule): void {
  const c = cache.get(rdkit);
  if (!c) return;
  cache.delete(rdkit);
  for (const f of [...c.pains, ...c.brenk]) f.query.delete();
  for (const m of [...c.qedAcceptors, ...c.qedAlerts]) m.query.delete();
  c.aliphaticRings.delete();
}
