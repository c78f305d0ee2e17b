// ChEMBL web services (https://www.ebi.ac.uk/chembl/api/data/...):
//   molecule            GET molecule/{CHEMBL_ID}.json | molecule/search.json?q=<name>&limit=N
//   target              GET target/{CHEMBL_ID}.json   | target/search.json?q=<name>&limit=N
//   molecule_activities GET activity.json?molecule_chembl_id=<ID>&limit=N (a name is resolved first)
//   target_activities   GET activity.json?target_chembl_id=<ID>&limit=N   (a name is resolved first)
//   similarity          GET similarity/{SMILES}/{threshold}.json?limit=N
//   substructure        GET substructure/{SMILES}.json?limit=N
//     A SMILES with "/" or "\\" (percent-encoded to %2F/%5C in a path, which front ends such as
//     EBI's refuse) or a URL over 2000 characters goes the way the official client sends every
//     list query (chembl_webresource_client query.py + url_query.py get_page): POST
//     similarity.json | substructure.json with "X-HTTP-Method-Override: GET" and a JSON body of
//     [key, value] pairs whose string values are percent-quoted as Python's urllib quote() does,
//     e.g. [["smiles","C%2FC%3DC%2FC"...]] -> the server (chembl_webservices wrap_view) reads the
//     pairs as the query's filters and unquotes them.
//   release             GET status.json -> {"chembl_db_version":"ChEMBL_35","chembl_release_date":...}
// Lists answer {"<collection>":[...],"page_meta":{"limit":..,"next":..,"offset":0,"previous":null,
// "total_count":N}}; a single record is the bare object; an unknown ID answers 404.
import { UpstreamFailure, type UpstreamClient, type UpstreamResponse } from '../http.js';
import { arr, hostOf, int, isObj, num, str, type SourceDefinition } from '../source.js';
import type { SourceResult } from '../types.js';

const API = '/chembl/api/data';
const ID_RE = /^CHEMBL\d{1,10}$/i;
const chemblCompoundUrl = (id: string) => `https://www.ebi.ac.uk/chembl/explore/compound/${id}`;
const chemblTargetUrl = (id: string) => `https://www.ebi.ac.uk/chembl/explore/target/${id}`;
const RELEASE_TTL_MS = 60 * 60 * 1000;
/** Longer URLs go as POST with X-HTTP-Method-Override (a conservative limit for proxies and front ends). */
export const CHEMBL_MAX_URL_LENGTH = 2000;

/** Whether a structure search goes as POST: a SMILES with "/" or "\\" (%2F/%5C in a path), or a URL too long for a GET. */
export function chemblSearchByPost(smiles: string, getUrl: string): boolean {
  return /[/\\]/.test(smiles) || getUrl.length > CHEMBL_MAX_URL_LENGTH;
}

/** Python's urllib.parse.quote(s) (safe "/"), as the official client quotes filter values. */
export function pythonQuote(s: string): string {
  return encodeURIComponent(s)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%2F/g, '/');
}

function molecule(m: Record<string, unknown>) {
  const structures = isObj(m.molecule_structures) ? m.molecule_structures : {};
  const props = isObj(m.molecule_properties) ? m.molecule_properties : {};
  const out: Record<string, unknown> = {
    molecule_chembl_id: String(m.molecule_chembl_id),
    pref_name: str(m.pref_name),
    molecule_type: str(m.molecule_type),
    max_phase: num(m.max_phase),
    first_approval: int(m.first_approval),
    canonical_smiles: str(structures.canonical_smiles),
    standard_inchi_key: str(structures.standard_inchi_key),
    molecular_formula: str(props.full_molformula),
    molecular_weight: num(props.full_mwt),
    alogp: num(props.alogp),
  };
  if (m.similarity !== undefined) out.similarity = num(m.similarity);
  return out;
}

function target(t: Record<string, unknown>) {
  const comps = arr(t.target_components).filter(isObj);
  const symbols = new Set<string>();
  for (const c of comps)
    for (const s of arr(c.target_component_synonyms)) {
      const symbol = isObj(s) && s.syn_type === 'GENE_SYMBOL' ? str(s.component_synonym) : null;
      if (symbol) symbols.add(symbol);
    }
  return {
    target_chembl_id: String(t.target_chembl_id),
    pref_name: str(t.pref_name),
    target_type: str(t.target_type),
    organism: str(t.organism),
    tax_id: int(t.tax_id),
    accessions: comps.map((c) => str(c.accession)).filter((a): a is string => a !== null),
    gene_symbols: [...symbols],
  };
}

function activity(a: Record<string, unknown>) {
  return {
    activity_id: int(a.activity_id),
    molecule_chembl_id: str(a.molecule_chembl_id),
    molecule_pref_name: str(a.molecule_pref_name),
    target_chembl_id: str(a.target_chembl_id),
    target_pref_name: str(a.target_pref_name),
    target_organism: str(a.target_organism),
    assay_chembl_id: str(a.assay_chembl_id),
    assay_type: str(a.assay_type),
    assay_description: str(a.assay_description),
    standard_type: str(a.standard_type),
    standard_relation: str(a.standard_relation),
    standard_value: num(a.standard_value),
    standard_units: str(a.standard_units),
    pchembl_value: num(a.pchembl_value),
    document_chembl_id: str(a.document_chembl_id),
    document_year: int(a.document_year),
  };
}

class ChemblClient {
  private release: { value: string | null; at: number } | null = null;
  private releasePending: Promise<string | null> | null = null;

  constructor(private readonly http: UpstreamClient) {}

  private async get(path: string, query?: Record<string, string | number>): Promise<{ status: number; body: unknown }> {
    return this.answer(await this.http.request(`${API}/${path}`, { query }));
  }

  /** A list query as the official client sends it: POST {resource}.json, X-HTTP-Method-Override: GET, [key, value] pairs. */
  private async getByPost(resource: string, filters: [string, string | number][]): Promise<{ status: number; body: unknown }> {
    const pairs = filters.map(([k, v]) => [k, typeof v === 'string' ? pythonQuote(v) : v]);
    return this.answer(await this.http.request(`${API}/${resource}.json`, { method: 'POST', json: pairs, headers: { 'x-http-method-override': 'GET' } }));
  }

  private answer(res: UpstreamResponse): { status: number; body: unknown } {
    if (res.status === 200) return { status: 200, body: res.json() };
    if (res.status === 404 || res.status === 400) return { status: res.status, body: null };
    throw new UpstreamFailure('upstream', `chembl: HTTP ${res.status}`, res.status);
  }

  /** The ChEMBL release (status.json), memoised for an hour; null if it cannot be read. */
  getRelease(): Promise<string | null> {
    if (this.release && Date.now() - this.release.at < RELEASE_TTL_MS) return Promise.resolve(this.release.value);
    if (!this.releasePending) {
      this.releasePending = this.get('status.json')
        .then(({ status, body }) => {
          const v = status === 200 && isObj(body) ? str(body.chembl_db_version) : null;
          // A failed read is remembered for five minutes so that items do not queue behind it.
          this.release = v ? { value: v, at: Date.now() } : { value: null, at: Date.now() - RELEASE_TTL_MS + 5 * 60 * 1000 };
          return v;
        })
        .catch(() => {
          this.release = { value: null, at: Date.now() - RELEASE_TTL_MS + 5 * 60 * 1000 };
          return null;
        })
        .finally(() => {
          this.releasePending = null;
        });
    }
    return this.releasePending;
  }

  private async list(path: string, collection: string, query: Record<string, string | number>, post?: { resource: string; filters: [string, string | number][] }) {
    const { status, body } = post ? await this.getByPost(post.resource, post.filters) : await this.get(path, query);
    if (status === 404) return { status: 'not_found' as const };
    if (status === 400) return { status: 'invalid_query' as const };
    const rows = arr(isObj(body) ? body[collection] : null).filter(isObj);
    const total = int(isObj(body) && isObj(body.page_meta) ? body.page_meta.total_count : null) ?? rows.length;
    return { status: 'ok' as const, rows, total };
  }

  /** A ChEMBL ID as given, or the best search hit for a name. */
  private async resolve(kind: 'molecule' | 'target', query: string) {
    if (ID_RE.test(query)) return { id: query.toUpperCase(), resolution: null };
    const r = await this.list(`${kind}/search.json`, `${kind}s`, { q: query, limit: 1 });
    if (r.status !== 'ok') return null;
    const [best] = r.rows;
    if (!best) return null;
    const id = String(best[`${kind}_chembl_id`]);
    return { id, resolution: { query, matched: id, entity: kind } };
  }

  async lookup(operation: string, query: string, limit: number, threshold: number): Promise<SourceResult> {
    const q = query.trim();
    switch (operation) {
      case 'molecule': {
        if (ID_RE.test(q)) {
          const { status, body } = await this.get(`molecule/${q.toUpperCase()}.json`);
          if (status !== 200 || !isObj(body)) return { status: status === 400 ? 'invalid_query' : 'not_found' };
          const m = molecule(body);
          return this.found(String(m.molecule_chembl_id), str(m.pref_name), chemblCompoundUrl(String(m.molecule_chembl_id)), { total_count: 1, molecules: [m] });
        }
        return this.moleculeList('molecule/search.json', { q, limit }, {});
      }
      case 'target': {
        let rows: Record<string, unknown>[];
        let total: number;
        if (ID_RE.test(q)) {
          const { status, body } = await this.get(`target/${q.toUpperCase()}.json`);
          if (status !== 200 || !isObj(body)) return { status: status === 400 ? 'invalid_query' : 'not_found' };
          rows = [body];
          total = 1;
        } else {
          const r = await this.list('target/search.json', 'targets', { q, limit });
          if (r.status !== 'ok') return { status: r.status };
          rows = r.rows;
          total = r.total;
        }
        const targets = rows.map(target);
        const [top] = targets;
        if (!top) return { status: 'not_found' };
        return this.found(top.target_chembl_id, top.pref_name, chemblTargetUrl(top.target_chembl_id), { total_count: total, targets });
      }
      case 'molecule_activities':
      case 'target_activities': {
        const kind = operation === 'molecule_activities' ? 'molecule' : 'target';
        const resolved = await this.resolve(kind, q);
        if (!resolved) return { status: 'not_found' };
        const r = await this.list('activity.json', 'activities', { [`${kind}_chembl_id`]: resolved.id, limit });
        if (r.status !== 'ok') return { status: r.status };
        if (r.total === 0 && r.rows.length === 0) return { status: 'not_found' };
        const activities = r.rows.map(activity);
        const first = activities[0];
        const title = kind === 'molecule' ? (first?.molecule_pref_name ?? null) : (first?.target_pref_name ?? null);
        const url = kind === 'molecule' ? chemblCompoundUrl(resolved.id) : chemblTargetUrl(resolved.id);
        return this.found(resolved.id, title, url, { [`${kind}_chembl_id`]: resolved.id, resolution: resolved.resolution, total_count: r.total, activities });
      }
      case 'similarity':
      case 'substructure': {
        const path = operation === 'similarity' ? `similarity/${encodeURIComponent(q)}/${threshold}.json` : `substructure/${encodeURIComponent(q)}.json`;
        const extra = operation === 'similarity' ? { threshold } : {};
        if (!chemblSearchByPost(q, this.http.url(`${API}/${path}`, { limit }))) return this.moleculeList(path, { limit }, extra);
        const filters: [string, string | number][] = [['smiles', q]];
        if (operation === 'similarity') filters.push(['similarity', threshold]);
        filters.push(['limit', limit], ['offset', 0]);
        return this.moleculeList(path, { limit }, extra, { resource: operation, filters });
      }
      default:
        return { status: 'invalid_query' };
    }
  }

  private async moleculeList(
    path: string,
    query: Record<string, string | number>,
    extra: Record<string, unknown>,
    post?: { resource: string; filters: [string, string | number][] },
  ): Promise<SourceResult> {
    const r = await this.list(path, 'molecules', query, post);
    if (r.status !== 'ok') return { status: r.status };
    const molecules = r.rows.map(molecule);
    const [top] = molecules;
    if (!top) return { status: 'not_found' };
    return this.found(String(top.molecule_chembl_id), str(top.pref_name), chemblCompoundUrl(String(top.molecule_chembl_id)), { ...extra, total_count: r.total, molecules });
  }

  private async found(record_id: string, title: string | null, url: string, data: unknown): Promise<SourceResult> {
    return { status: 'found', record_id, title, url, release: await this.getRelease(), data };
  }
}

export const chemblSource: SourceDefinition = {
  key: 'chembl',
  source: 'chembl',
  endpoint: 'bioactivity',
  operations: ['molecule', 'target', 'molecule_activities', 'target_activities', 'similarity', 'substructure'],
  license: 'CC BY-SA 3.0',
  attribution:
    'ChEMBL, EMBL-EBI (https://www.ebi.ac.uk/chembl/), licensed CC BY-SA 3.0 (https://creativecommons.org/licenses/by-sa/3.0/). Zdrazil B. et al., Nucleic Acids Res. 2024.',
  hosts: ['chembl'],
  ratePerSecond: 10,
  structureOperations: ['similarity', 'substructure'],
  compoundNameOperations: ['molecule', 'molecule_activities'],
  create(ctx) {
    const client = new ChemblClient(hostOf(ctx, 'chembl'));
    return { lookup: (operation, query, params) => client.lookup(operation, query, params.limit, params.threshold) };
  },
};
