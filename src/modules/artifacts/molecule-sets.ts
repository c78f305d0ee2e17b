// Reading molecule sets (the job engine's inputs): choosing an artifact's molecule port, and
// streaming its molecules from the bundle, else one archive member per record.
import type { Queryable } from '../../db/database.js';
import { invalid, listFew } from '../../errors.js';
import { parseMolecules, type ParsedMolecule } from '../../chem/formats/molecules.js';
import { fitRecordId } from '../../record-ids.js';
import type { ManifestRecord } from './manifest.js';
import { readBundle } from './bundle.js';
import { artifactsStore } from './store.js';
import type { Logger, MoleculeItem } from './types.js';
import type { ZipReader } from './zip.js';

const MAX_MOLECULE_MEMBER = 4 * 1024 * 1024;

/** Loc of job inputs (`input_artifact_id`, `port` in a job payload). */
const INPUT_LOC = ['input_artifact_id'];
const PORT_LOC = ['port'];

export interface MoleculePortRow {
  port: string;
  data_kind: string;
  data_format: string;
  record_count: number;
}

/** What reading a molecule set needs of the service. */
export interface MoleculeSetDeps {
  readonly db: Queryable;
  readonly log: Logger;
  openZip(row: { storage_key: string; size_bytes: number }): Promise<ZipReader>;
}

/** The molecule port to read: the one named, else the only port of kind `molecules`. */
export async function chooseMoleculePort(db: Queryable, artifactId: string, port?: string): Promise<MoleculePortRow> {
  const ports = await artifactsStore.ports(db, artifactId);
  let chosen: MoleculePortRow | undefined;
  if (port !== undefined) {
    chosen = ports.find((p) => p.port === port);
    if (!chosen) throw invalid(PORT_LOC, `artifact ${artifactId} has no port "${port}" (its ports: ${listFew(ports.map((p) => p.port))})`, port);
    if (chosen.data_kind !== 'molecules') throw invalid(PORT_LOC, `port "${port}" of artifact ${artifactId} is not a molecule set (its kind is "${chosen.data_kind}")`, port);
  } else {
    const [only, ...others] = ports.filter((p) => p.data_kind === 'molecules');
    if (!only)
      throw invalid(
        INPUT_LOC,
        `artifact ${artifactId} holds no molecule set (its ports: ${listFew(ports.map((p) => `${p.port} (${p.data_kind})`))}); upload one with mode=molecules`,
        artifactId,
      );
    if (others.length > 0)
      throw invalid(PORT_LOC, `artifact ${artifactId} has several molecule sets (${listFew([only, ...others].map((p) => p.port))}): name one with port`, null, 'missing');
    chosen = only;
  }
  if (!isMoleculeFormat(chosen.data_format)) {
    throw invalid(PORT_LOC, `port "${chosen.port}" of artifact ${artifactId} has format "${chosen.data_format}"; molecule sets are read from smiles or sdf records`, chosen.port);
  }
  return chosen;
}

/**
 * The molecules of port `p` of the artifact (`summary`), in archive order (see
 * ArtifactService.readMolecules). An id longer than the rule allows (an upload from before it)
 * comes shortened as fitRecordId makes it, so that a job's results can store it.
 */
export async function* readMoleculeSet(
  deps: MoleculeSetDeps,
  artifactId: string,
  summary: { id: string; storage_key: string; size_bytes: number },
  p: MoleculePortRow,
): AsyncGenerator<MoleculeItem> {
  for await (const m of readMoleculeRecords(deps, artifactId, summary, p)) yield { ...m, id: fitRecordId(m.id) };
}

async function* readMoleculeRecords(
  deps: MoleculeSetDeps,
  artifactId: string,
  summary: { id: string; storage_key: string; size_bytes: number },
  p: MoleculePortRow,
): AsyncGenerator<MoleculeItem> {
  const header = await artifactsStore.portHeader(deps.db, summary.id, p.port);
  const reader = await deps.openZip(summary);
  try {
    if (header?.bundle) {
      const entry = (await reader.find([header.bundle])).get(header.bundle);
      if (entry) {
        yield* readBundle(await reader.stream(entry));
        return;
      }
    }
    const byMember = new Map<string, ManifestRecord[]>();
    for (const r of await artifactsStore.portRecords(deps.db, summary.id, p.port)) {
      const list = byMember.get(r.files.primary);
      if (list) list.push(r);
      else byMember.set(r.files.primary, [r]);
    }
    const sdf = /^(sdf|sd|mol|molblock|mdl)$/i.test(p.data_format);
    for await (const entry of reader.entries()) {
      const recs = byMember.get(entry.fileName);
      if (!recs) continue;
      const text = (await reader.readBuffer(entry, MAX_MOLECULE_MEMBER)).toString('utf8');
      let mol: ParsedMolecule | undefined;
      for await (const m of parseMolecules([text], sdf ? 'sdf' : 'smi', { warn: () => undefined })) {
        mol = m;
        break;
      }
      if (!mol) {
        deps.log.warn({ artifactId, member: entry.fileName }, 'molecule record is not readable; skipped');
        continue;
      }
      for (const r of recs) {
        const name = mol.name ?? (typeof r.name === 'string' ? r.name : undefined);
        const metrics = mol.metrics ?? r.metrics;
        yield {
          id: r.id,
          smiles: mol.smiles ?? mol.molblock ?? '',
          ...(name ? { name } : {}),
          ...(mol.molblock ? { molblock: mol.molblock } : {}),
          ...(metrics ? { metrics } : {}),
        };
      }
    }
  } finally {
    reader.close();
  }
}

function isMoleculeFormat(format: string): boolean {
  return /^(smiles|smi|sdf|sd|mol|molblock|mdl)$/i.test(format);
}
