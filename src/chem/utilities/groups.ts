// The utilities over a group of molecules, one item per request: the maximum common
// substructure (RDKit FindMCS through MinimalLib's get_mcs_as_json) and R-group decomposition
// (RGroupDecomposition through get_rgd). Molecules RDKit cannot read are reported per item
// and left out of the group. Every RDKit object is deleted in a finally block.
import type { Mol, MolList } from '@rdkit/rdkit';
import type { RDKitModule } from '../rdkit.js';
import { readInput } from './read.js';
import type { ItemFailure, McsInput, McsOutcome, RGroupsInput, RGroupsItem, RGroupsOutcome } from './types.js';

const ATOM_COMPARE = { elements: 'Elements', any: 'Any', isotopes: 'Isotopes' } as const;
const BOND_COMPARE = { order: 'Order', any: 'Any', order_exact: 'OrderExact' } as const;

/** Reads every molecule into a MolList (the list holds copies); failures by input index. */
function readGroup(rdkit: RDKitModule, molecules: string[], format: McsInput['inputFormat']): { list: MolList; kept: number[]; failures: Map<number, ItemFailure> } {
  const list = new rdkit.MolList();
  const kept: number[] = [];
  const failures = new Map<number, ItemFailure>();
  for (const [i, s] of molecules.entries()) {
    const r = readInput(rdkit, s, format);
    if (!r.mol) {
      failures.set(i, r.failure);
      continue;
    }
    try {
      list.append(r.mol);
      kept.push(i);
    } finally {
      r.mol.delete();
    }
  }
  return { list, kept, failures };
}

interface McsJson {
  smarts?: string;
  numAtoms?: number;
  numBonds?: number;
  canceled?: boolean;
}

export function mcsItem(rdkit: RDKitModule, p: McsInput): McsOutcome {
  const { list, kept, failures } = readGroup(rdkit, p.molecules, p.inputFormat);
  let query: Mol | null = null;
  try {
    const items: McsOutcome['items'] = p.molecules.map((_, i) => {
      const f = failures.get(i);
      return f ? { atoms: null, failure: f } : { atoms: [], failure: null };
    });
    if (kept.length < 2) return { smarts: null, numAtoms: 0, numBonds: 0, timedOut: false, items };
    const details = {
      Timeout: p.timeoutSec,
      AtomCompare: ATOM_COMPARE[p.atomCompare],
      BondCompare: BOND_COMPARE[p.bondCompare],
      RingMatchesRingOnly: p.ringMatchesRingOnly,
      CompleteRingsOnly: p.completeRingsOnly,
      MatchValences: p.matchValences,
      MatchChiralTag: p.matchChiralTag,
    };
    const r = JSON.parse(rdkit.get_mcs_as_json(list, JSON.stringify(details))) as McsJson;
    const smarts = r.smarts || null;
    const out: McsOutcome = { smarts, numAtoms: r.numAtoms ?? 0, numBonds: r.numBonds ?? 0, timedOut: r.canceled === true, items };
    if (!smarts || out.numAtoms === 0) return out;
    query = rdkit.get_qmol(smarts);
    for (const [k, i] of kept.entries()) {
      const mol = list.at(k);
      if (!mol || !query) continue;
      try {
        const m = JSON.parse(mol.get_substruct_match(query, JSON.stringify({ useChirality: p.matchChiralTag })) || '{}') as { atoms?: number[] };
        items[i] = { atoms: m.atoms ?? [], failure: null };
      } finally {
        mol.delete();
      }
    }
    return out;
  } finally {
    query?.delete();
    list.delete();
  }
}

function readCore(rdkit: RDKitModule, core: string): Mol | null {
  if (core.trim() === '' || /[\n\r\0]/.test(core) || core.trimStart().startsWith('{')) return null;
  for (const parse of [() => rdkit.get_qmol(core), () => rdkit.get_mol(core)]) {
    const m = parse();
    if (m && m.is_valid() && m.get_num_atoms() > 0) return m;
    m?.delete();
  }
  return null;
}

type RgdRow = Record<string, Mol>;

export function rgroupsItem(rdkit: RDKitModule, p: RGroupsInput): RGroupsOutcome {
  const cores = new rdkit.MolList();
  const owned: { delete(): void }[] = [cores];
  try {
    for (const [index, s] of p.cores.entries()) {
      const core = readCore(rdkit, s);
      if (!core) return { badCore: { index, detail: 'RDKit cannot read the core as SMARTS or SMILES' }, columns: [], items: [] };
      try {
        cores.append(core);
      } finally {
        core.delete();
      }
    }
    const rgd = rdkit.get_rgd(cores, JSON.stringify({ onlyMatchAtRGroups: p.onlyMatchAtRGroups }));
    if (!rgd) throw new Error('RDKit could not set up the R-group decomposition');
    owned.push(rgd);
    const items: RGroupsItem[] = [];
    const matchedAt: number[] = [];
    for (const s of p.molecules) {
      const r = readInput(rdkit, s, p.inputFormat);
      if (!r.mol) {
        items.push({ matched: false, core: null, rgroups: null, failure: r.failure });
        continue;
      }
      try {
        const at = rgd.add(r.mol);
        if (at >= 0) matchedAt.push(items.length);
        items.push({ matched: false, core: null, rgroups: null, failure: null });
      } finally {
        r.mol.delete();
      }
    }
    const columns = new Set<string>();
    if (matchedAt.length > 0) {
      rgd.process();
      const rows = rgd.get_rgroups_as_rows() as RgdRow[];
      for (const [k, row] of rows.entries()) {
        const rgroups: Record<string, string> = {};
        let core = '';
        for (const [name, mol] of Object.entries(row)) {
          try {
            if (name === 'Core') core = mol.get_smiles();
            else {
              rgroups[name] = mol.get_smiles();
              columns.add(name);
            }
          } finally {
            mol.delete();
          }
        }
        const i = matchedAt[k];
        if (i !== undefined) items[i] = { matched: true, core, rgroups, failure: null };
      }
    }
    return { badCore: null, columns: [...columns].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1))), items };
  } finally {
    for (const o of owned.reverse()) o.delete();
  }
}
