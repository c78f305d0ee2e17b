// Open Targets Platform GraphQL API: POST /api/v4/graphql {"query": ..., "variables": ...}.
// Field names are those of the 2026 schema (target.drugAndClinicalCandidates replaced the
// removed knownDrugs). Every query also asks meta.dataVersion, which becomes the item's
// `release`. A gene symbol or disease name is resolved to its ID through `search` first.
// GraphQL reports failures in the body (`errors`), with HTTP 200 or 400: both are upstream errors.
import { UpstreamFailure, type UpstreamClient } from '../http.js';
import { arr, hostOf, int, isObj, num, str, type SourceDefinition } from '../source.js';
import type { SourceResult } from '../types.js';

const PATH = '/api/v4/graphql';
const ENSG_RE = /^ENSG\d{11}$/i;
const DISEASE_ID_RE = /^[A-Za-z]{2,10}_[A-Za-z0-9]+$/;
const META = 'meta { dataVersion { year month iteration } }';

const otTargetUrl = (id: string) => `https://platform.opentargets.org/target/${id}`;
const otDiseaseUrl = (id: string) => `https://platform.opentargets.org/disease/${id}`;

const SEARCH_Q = `query Search($q: String!, $entityNames: [String!]!) {
  search(queryString: $q, entityNames: $entityNames, page: {index: 0, size: 10}) { hits { id name entity } }
  ${META}
}`;

const TARGET_ASSOC_Q = `query TargetAssociations($id: String!, $size: Int!) {
  target(ensemblId: $id) {
    id approvedSymbol approvedName
    associatedDiseases(page: {index: 0, size: $size}) { count rows { disease { id name } score datatypeScores { id score } } }
  }
  ${META}
}`;

const DISEASE_ASSOC_Q = `query DiseaseAssociations($id: String!, $size: Int!) {
  disease(efoId: $id) {
    id name
    associatedTargets(page: {index: 0, size: $size}) { count rows { target { id approvedSymbol approvedName } score datatypeScores { id score } } }
  }
  ${META}
}`;

const TARGET_DRUGS_Q = `query TargetDrugs($id: String!) {
  target(ensemblId: $id) {
    id approvedSymbol approvedName
    drugAndClinicalCandidates { count rows { id maxClinicalStage drug { id name drugType maximumClinicalStage } diseases { disease { id name } } } }
  }
  ${META}
}`;

const DISEASE_DRUGS_Q = `query DiseaseDrugs($id: String!) {
  disease(efoId: $id) {
    id name
    drugAndClinicalCandidates { count rows { id maxClinicalStage drug { id name drugType maximumClinicalStage mechanismsOfAction { rows { mechanismOfAction actionType targets { id approvedSymbol } } } } } }
  }
  ${META}
}`;

/** Most advanced first; unknown stages last. */
const STAGE_ORDER = ['APPROVAL', 'PREAPPROVAL', 'PHASE_4', 'PHASE_3', 'PHASE_2_3', 'PHASE_2', 'PHASE_1_2', 'PHASE_1', 'EARLY_PHASE_1', 'IND', 'PRECLINICAL'];
const stageRank = (s: string | null) => {
  const i = s ? STAGE_ORDER.indexOf(s) : -1;
  return i < 0 ? STAGE_ORDER.length : i;
};

/** A string or number as text (GraphQL scalars such as the data version's year and month); null otherwise. */
const scalarText = (v: unknown): string | null => (typeof v === 'string' || typeof v === 'number' ? String(v) : null);

function release(data: Record<string, unknown>): string | null {
  const dv = isObj(data.meta) && isObj(data.meta.dataVersion) ? data.meta.dataVersion : null;
  if (!dv) return null;
  const y = str(scalarText(dv.year));
  const month = scalarText(dv.month);
  const m = month === null ? null : month.padStart(2, '0');
  if (!y) return null;
  return m ? `${y}.${m}` : y;
}

const scores = (v: unknown): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const d of arr(v)) {
    if (!isObj(d)) continue;
    const id = str(d.id);
    const score = num(d.score);
    if (id && score !== null) out[id] = score;
  }
  return out;
};
const otTarget = (t: Record<string, unknown>) => ({ id: String(t.id), approved_symbol: str(t.approvedSymbol), approved_name: str(t.approvedName) });
const otDisease = (d: Record<string, unknown>) => ({ id: String(d.id), name: str(d.name) });

class OpenTargetsClient {
  constructor(private readonly http: UpstreamClient) {}

  private async gql(query: string, variables: Record<string, unknown>): Promise<Record<string, unknown>> {
    const res = await this.http.request(PATH, { json: { query, variables } });
    let body: unknown;
    try {
      body = res.json();
    } catch {
      throw new UpstreamFailure('upstream', `opentargets: HTTP ${res.status}, answer is not JSON`, res.status);
    }
    const errors = arr(isObj(body) ? body.errors : null);
    if (res.status !== 200 || errors.length || !isObj(body) || !isObj(body.data)) {
      const msg = errors
        .map((e) => (isObj(e) ? str(e.message) : null))
        .filter(Boolean)
        .join('; ');
      throw new UpstreamFailure('upstream', `opentargets: HTTP ${res.status}${msg ? ': ' + msg : ''}`, res.status);
    }
    return body.data;
  }

  private async resolve(entity: 'target' | 'disease', query: string) {
    const q = query.trim();
    if (entity === 'target' ? ENSG_RE.test(q) : DISEASE_ID_RE.test(q)) return { id: entity === 'target' ? q.toUpperCase() : q, resolution: null };
    const data = await this.gql(SEARCH_Q, { q, entityNames: [entity] });
    const hits = arr(isObj(data.search) ? data.search.hits : null)
      .filter(isObj)
      .filter((h) => str(h.id) && (h.entity === undefined || h.entity === entity));
    const [first] = hits;
    if (!first) return null;
    const exact = hits.find((h) => (scalarText(h.name) ?? '').toLowerCase() === q.toLowerCase() || String(h.id).toLowerCase() === q.toLowerCase());
    const hit = exact ?? first;
    return { id: String(hit.id), resolution: { query: q, matched: String(hit.id), entity } };
  }

  async lookup(operation: string, query: string, limit: number): Promise<SourceResult> {
    const entity = operation.startsWith('target_') ? 'target' : 'disease';
    const resolved = await this.resolve(entity, query);
    if (!resolved) return { status: 'not_found' };
    const { id, resolution } = resolved;
    switch (operation) {
      case 'target_associations': {
        const data = await this.gql(TARGET_ASSOC_Q, { id, size: limit });
        const t = data.target;
        if (!isObj(t)) return { status: 'not_found' };
        const a = isObj(t.associatedDiseases) ? t.associatedDiseases : {};
        const associations = arr(a.rows)
          .filter(isObj)
          .flatMap((r) => (isObj(r.disease) ? [{ disease: otDisease(r.disease), score: num(r.score) ?? 0, datatype_scores: scores(r.datatypeScores) }] : []));
        const target = otTarget(t);
        return this.found(target.id, target.approved_symbol, otTargetUrl(target.id), release(data), {
          target,
          resolution,
          total_count: int(a.count) ?? associations.length,
          associations,
        });
      }
      case 'disease_associations': {
        const data = await this.gql(DISEASE_ASSOC_Q, { id, size: limit });
        const d = data.disease;
        if (!isObj(d)) return { status: 'not_found' };
        const a = isObj(d.associatedTargets) ? d.associatedTargets : {};
        const associations = arr(a.rows)
          .filter(isObj)
          .flatMap((r) => (isObj(r.target) ? [{ target: otTarget(r.target), score: num(r.score) ?? 0, datatype_scores: scores(r.datatypeScores) }] : []));
        const disease = otDisease(d);
        return this.found(disease.id, disease.name, otDiseaseUrl(disease.id), release(data), {
          disease,
          resolution,
          total_count: int(a.count) ?? associations.length,
          associations,
        });
      }
      case 'target_drugs':
      case 'disease_drugs': {
        const isTarget = operation === 'target_drugs';
        const data = await this.gql(isTarget ? TARGET_DRUGS_Q : DISEASE_DRUGS_Q, { id });
        const rec = isTarget ? data.target : data.disease;
        if (!isObj(rec)) return { status: 'not_found' };
        const c = isObj(rec.drugAndClinicalCandidates) ? rec.drugAndClinicalCandidates : {};
        const rows = arr(c.rows)
          .filter(isObj)
          .flatMap((r) => {
            const d = r.drug;
            if (!isObj(d)) return [];
            const drugId = str(d.id);
            if (!drugId) return [];
            const drug: Record<string, unknown> = {
              drug_id: drugId,
              drug_name: str(d.name),
              drug_type: str(d.drugType),
              max_clinical_stage: str(r.maxClinicalStage) ?? str(d.maximumClinicalStage),
            };
            if (isTarget) drug.diseases = arr(r.diseases).flatMap((x) => (isObj(x) && isObj(x.disease) ? [otDisease(x.disease)] : []));
            else
              drug.mechanisms = arr(isObj(d.mechanismsOfAction) ? d.mechanismsOfAction.rows : null)
                .filter(isObj)
                .map((m) => ({
                  mechanism_of_action: str(m.mechanismOfAction),
                  action_type: str(m.actionType),
                  target_symbols: arr(m.targets)
                    .map((t) => (isObj(t) ? str(t.approvedSymbol) : null))
                    .filter((s): s is string => s !== null),
                }));
            return [drug];
          });
        const drugs = rows
          .map((d, i) => ({ d, i }))
          .sort((x, y) => stageRank(x.d.max_clinical_stage as string | null) - stageRank(y.d.max_clinical_stage as string | null) || x.i - y.i)
          .map((x) => x.d)
          .slice(0, limit);
        const head = isTarget ? otTarget(rec) : otDisease(rec);
        const title = isTarget ? (head as ReturnType<typeof otTarget>).approved_symbol : (head as ReturnType<typeof otDisease>).name;
        return this.found(head.id, title, isTarget ? otTargetUrl(head.id) : otDiseaseUrl(head.id), release(data), {
          [isTarget ? 'target' : 'disease']: head,
          resolution,
          total_count: int(c.count) ?? rows.length,
          drugs,
        });
      }
      default:
        return { status: 'invalid_query' };
    }
  }

  private found(record_id: string, title: string | null, url: string, rel: string | null, data: unknown): SourceResult {
    return { status: 'found', record_id, title, url, release: rel, data };
  }
}

export const openTargetsSource: SourceDefinition = {
  key: 'opentargets',
  source: 'opentargets',
  endpoint: 'targets',
  operations: ['target_associations', 'disease_associations', 'target_drugs', 'disease_drugs'],
  license: 'CC0 1.0',
  attribution: 'Open Targets Platform (https://platform.opentargets.org), data released under CC0 1.0. Buniello A. et al., Nucleic Acids Res. 2025.',
  hosts: ['opentargets'],
  ratePerSecond: 10,
  create(ctx) {
    const client = new OpenTargetsClient(hostOf(ctx, 'opentargets'));
    return { lookup: (operation, query, params) => client.lookup(operation, query, params.limit) };
  },
};
