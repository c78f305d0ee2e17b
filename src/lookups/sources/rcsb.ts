// RCSB PDB: the Search API (search host) finds entry IDs, the Data API (data host) reads them.
//   entry       GET  data:/rest/v1/core/entry/{PDB_ID}   404 {"status":404,"message":"No data found for entry ..."}
//   by_uniprot  POST search:/rcsbsearch/v2/query  text query on
//               rcsb_polymer_entity_container_identifiers.reference_sequence_identifiers.database_accession
//               (and database_name = UniProt), return_type entry
//   search      POST search:/rcsbsearch/v2/query  full_text query, return_type entry
// Search answers {"query_id":..,"result_type":"entry","total_count":N,"result_set":[{"identifier":"4HHB","score":1.0}]}
// or 204 No Content when nothing matches. Hits are described through the Data API GraphQL
// endpoint, POST data:/graphql {entries(entry_ids: [...]) {rcsb_id struct {title} exptl {method}
// rcsb_entry_info {resolution_combined}}}.
import { UpstreamFailure, type UpstreamClient } from '../http.js';
import { arr, hostOf, int, isObj, num, str, type SourceDefinition } from '../source.js';
import type { SourceResult } from '../types.js';
import { UNIPROT_ACCESSION_RE } from './uniprot.js';

const PDB_ID_RE = /^(?:[0-9][A-Za-z0-9]{3}|pdb_[0-9]{4}[0-9a-z]{4})$/i;
const rcsbEntryUrl = (id: string) => `https://www.rcsb.org/structure/${id}`;

const ENTRIES_Q = `query Entries($ids: [String!]!) {
  entries(entry_ids: $ids) { rcsb_id struct { title } exptl { method } rcsb_entry_info { resolution_combined } }
}`;

function entry(e: Record<string, unknown>) {
  const info = isObj(e.rcsb_entry_info) ? e.rcsb_entry_info : {};
  const acc = isObj(e.rcsb_accession_info) ? e.rcsb_accession_info : {};
  const cit = isObj(e.rcsb_primary_citation) ? e.rcsb_primary_citation : (arr(e.citation).find((c) => isObj(c) && c.rcsb_is_primary === 'Y') ?? null);
  return {
    pdb_id: String(e.rcsb_id ?? (isObj(e.entry) ? e.entry.id : '')).toUpperCase(),
    title: isObj(e.struct) ? str(e.struct.title) : null,
    methods: arr(e.exptl)
      .map((x) => (isObj(x) ? str(x.method) : null))
      .filter((m): m is string => m !== null),
    resolution: num(arr(info.resolution_combined)[0]),
    keywords: isObj(e.struct_keywords) ? str(e.struct_keywords.pdbx_keywords) : null,
    deposit_date: str(acc.deposit_date),
    release_date: str(acc.initial_release_date),
    polymer_entity_count: int(info.polymer_entity_count),
    molecular_weight: num(info.molecular_weight),
    citation: isObj(cit)
      ? {
          title: str(cit.title),
          journal: str(cit.rcsb_journal_abbrev) ?? str(cit.journal_abbrev),
          year: int(cit.year),
          doi: str(cit.pdbx_database_id_doi),
          pubmed_id: int(cit.pdbx_database_id_pub_med),
        }
      : null,
  };
}

class RcsbClient {
  constructor(
    private readonly search: UpstreamClient,
    private readonly data: UpstreamClient,
  ) {}

  private async find(query: Record<string, unknown>, rows: number): Promise<{ total: number; hits: { id: string; score: number | null }[] } | 'invalid_query'> {
    const res = await this.search.request('/rcsbsearch/v2/query', {
      json: {
        query,
        return_type: 'entry',
        request_options: { paginate: { start: 0, rows }, results_content_type: ['experimental'], sort: [{ sort_by: 'score', direction: 'desc' }] },
      },
    });
    if (res.status === 204) return { total: 0, hits: [] };
    if (res.status === 400) return 'invalid_query';
    if (res.status !== 200) throw new UpstreamFailure('upstream', `rcsb search: HTTP ${res.status}`, res.status);
    const body = res.json();
    const hits = arr(isObj(body) ? body.result_set : null).flatMap((h) => {
      if (!isObj(h)) return [];
      const id = str(h.identifier);
      return id ? [{ id: id.toUpperCase(), score: num(h.score) }] : [];
    });
    return { total: int(isObj(body) ? body.total_count : null) ?? hits.length, hits };
  }

  private async describe(ids: string[]): Promise<Map<string, Record<string, unknown>>> {
    const out = new Map<string, Record<string, unknown>>();
    if (!ids.length) return out;
    const res = await this.data.request('/graphql', { json: { query: ENTRIES_Q, variables: { ids } } });
    if (res.status !== 200) throw new UpstreamFailure('upstream', `rcsb data: HTTP ${res.status}`, res.status);
    const body = res.json();
    for (const e of arr(isObj(body) && isObj(body.data) ? body.data.entries : null)) if (isObj(e) && str(e.rcsb_id)) out.set(String(e.rcsb_id).toUpperCase(), e);
    return out;
  }

  private async searchResult(query: Record<string, unknown>, limit: number): Promise<SourceResult> {
    const r = await this.find(query, limit);
    if (r === 'invalid_query') return { status: 'invalid_query' };
    if (!r.hits.length) return { status: 'not_found' };
    const details = await this.describe(r.hits.map((h) => h.id));
    const entries = r.hits.map((h) => {
      const d = details.get(h.id);
      return {
        pdb_id: h.id,
        score: h.score,
        title: d && isObj(d.struct) ? str(d.struct.title) : null,
        methods: d
          ? arr(d.exptl)
              .map((x) => (isObj(x) ? str(x.method) : null))
              .filter((m): m is string => m !== null)
          : [],
        resolution: d && isObj(d.rcsb_entry_info) ? num(arr(d.rcsb_entry_info.resolution_combined)[0]) : null,
      };
    });
    const [top] = entries;
    if (!top) return { status: 'not_found' };
    return { status: 'found', record_id: top.pdb_id, title: top.title, url: rcsbEntryUrl(top.pdb_id), release: null, data: { total_count: r.total, entries } };
  }

  async lookup(operation: string, query: string, limit: number): Promise<SourceResult> {
    const q = query.trim();
    switch (operation) {
      case 'entry': {
        if (!PDB_ID_RE.test(q)) return { status: 'invalid_query' };
        const id = q.toUpperCase();
        const res = await this.data.request(`/rest/v1/core/entry/${encodeURIComponent(id)}`);
        if (res.status === 404) return { status: 'not_found' };
        if (res.status === 400) return { status: 'invalid_query' };
        if (res.status !== 200) throw new UpstreamFailure('upstream', `rcsb data: HTTP ${res.status}`, res.status);
        const body = res.json();
        if (!isObj(body)) throw new UpstreamFailure('upstream', 'rcsb data: entry is not an object');
        const data = entry(body);
        if (!data.pdb_id) data.pdb_id = id;
        return { status: 'found', record_id: data.pdb_id, title: data.title, url: rcsbEntryUrl(data.pdb_id), release: null, data };
      }
      case 'by_uniprot': {
        const acc = q.toUpperCase();
        if (!UNIPROT_ACCESSION_RE.test(acc)) return { status: 'invalid_query' };
        const attr = 'rcsb_polymer_entity_container_identifiers.reference_sequence_identifiers';
        return this.searchResult(
          {
            type: 'group',
            logical_operator: 'and',
            nodes: [
              { type: 'terminal', service: 'text', parameters: { attribute: `${attr}.database_accession`, operator: 'exact_match', value: acc } },
              { type: 'terminal', service: 'text', parameters: { attribute: `${attr}.database_name`, operator: 'exact_match', value: 'UniProt' } },
            ],
          },
          limit,
        );
      }
      case 'search':
        return this.searchResult({ type: 'terminal', service: 'full_text', parameters: { value: q } }, limit);
      default:
        return { status: 'invalid_query' };
    }
  }
}

export const rcsbSource: SourceDefinition = {
  key: 'rcsb',
  source: 'rcsb',
  endpoint: 'structures',
  operations: ['entry', 'by_uniprot', 'search'],
  license: 'CC0 1.0',
  attribution:
    'RCSB Protein Data Bank (https://www.rcsb.org), data released under CC0 1.0. Burley S.K. et al., Nucleic Acids Res. 2025; Berman H.M. et al., Nucleic Acids Res. 2000.',
  hosts: ['rcsb_search', 'rcsb_data'],
  ratePerSecond: 10,
  create(ctx) {
    const client = new RcsbClient(hostOf(ctx, 'rcsb_search'), hostOf(ctx, 'rcsb_data'));
    return { lookup: (operation, query, params) => client.lookup(operation, query, params.limit) };
  },
};
