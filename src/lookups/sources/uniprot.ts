// UniProt REST API (https://rest.uniprot.org):
//   entry   GET /uniprotkb/{accession}?format=json    404 {"url":..,"messages":["Resource not found"]}
//                                                      400 {"url":..,"messages":["The 'accession' value has invalid format..."]}
//   search  GET /uniprotkb/search?query=...&format=json&size=N&fields=...
//           -> {"results":[...]}, total in the X-Total-Results header
// The release is the X-UniProt-Release header (e.g. "2025_01").
import { UpstreamFailure, type UpstreamClient, type UpstreamResponse } from '../http.js';
import { arr, hostOf, int, isObj, str, type SourceDefinition } from '../source.js';
import { LIMITS } from '../schemas.js';
import type { SourceResult } from '../types.js';

/** UniProtKB accession (https://www.uniprot.org/help/accession_numbers), optionally with an isoform suffix. */
export const UNIPROT_ACCESSION_RE = /^(?:[OPQ][0-9][A-Z0-9]{3}[0-9]|[A-NR-Z][0-9](?:[A-Z][A-Z0-9]{2}[0-9]){1,2})(?:-\d+)?$/;
const uniprotEntryUrl = (acc: string) => `https://www.uniprot.org/uniprotkb/${acc}/entry`;
const SEARCH_FIELDS = 'accession,id,reviewed,protein_name,gene_names,organism_name,organism_id,length';

function proteinName(e: Record<string, unknown>): string | null {
  const d = isObj(e.proteinDescription) ? e.proteinDescription : {};
  const rec = isObj(d.recommendedName) ? d.recommendedName : null;
  const sub = arr(d.submissionNames).find(isObj);
  const name = rec ?? sub ?? null;
  return name && isObj(name.fullName) ? str(name.fullName.value) : null;
}

function geneNames(e: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const g of arr(e.genes).filter(isObj)) {
    const name = isObj(g.geneName) ? str(g.geneName.value) : null;
    if (name) out.push(name);
    for (const s of arr(g.synonyms)) {
      const synonym = isObj(s) ? str(s.value) : null;
      if (synonym) out.push(synonym);
    }
  }
  return [...new Set(out)];
}

function organism(e: Record<string, unknown>) {
  const o = isObj(e.organism) ? e.organism : null;
  return o ? { scientific_name: str(o.scientificName), common_name: str(o.commonName), taxon_id: int(o.taxonId) } : null;
}

const reviewed = (e: Record<string, unknown>) => typeof e.entryType === 'string' && /reviewed/i.test(e.entryType) && !/unreviewed/i.test(e.entryType);

function summary(e: Record<string, unknown>) {
  return {
    accession: String(e.primaryAccession),
    uniprot_id: str(e.uniProtkbId),
    reviewed: reviewed(e),
    protein_name: proteinName(e),
    gene_names: geneNames(e),
    organism: organism(e),
    length: isObj(e.sequence) ? int(e.sequence.length) : null,
  };
}

function entry(e: Record<string, unknown>) {
  const d = isObj(e.proteinDescription) && isObj(e.proteinDescription.recommendedName) ? e.proteinDescription.recommendedName : {};
  const fn = arr(e.comments)
    .filter(isObj)
    .find((c) => c.commentType === 'FUNCTION');
  const fnText = fn
    ? arr(fn.texts)
        .map((t) => (isObj(t) ? str(t.value) : null))
        .filter(Boolean)
        .join(' ')
    : '';
  const pdb = arr(e.uniProtKBCrossReferences).flatMap((x) => {
    const id = isObj(x) && x.database === 'PDB' ? str(x.id) : null;
    return id ? [id] : [];
  });
  const seq = isObj(e.sequence) ? e.sequence : {};
  return {
    accession: String(e.primaryAccession),
    uniprot_id: str(e.uniProtkbId),
    entry_type: str(e.entryType),
    reviewed: reviewed(e),
    protein_name: proteinName(e),
    ec_numbers: arr(d.ecNumbers)
      .map((x) => (isObj(x) ? str(x.value) : null))
      .filter((x): x is string => x !== null),
    gene_names: geneNames(e),
    organism: organism(e),
    length: int(seq.length),
    mass: int(seq.molWeight),
    sequence: str(seq.value),
    function: fnText || null,
    pdb_ids: [...new Set(pdb)],
    last_annotation_update: isObj(e.entryAudit) ? str(e.entryAudit.lastAnnotationUpdateDate) : null,
  };
}

/** Lucene-quoted term for the UniProt query language. */
const quote = (s: string) => `"${s.replace(/["\\]/g, '\\$&')}"`;

export function uniprotSearchQuery(term: string, organismFilter: string | null): string {
  const t = term.trim();
  let q = `(gene:${quote(t)} OR protein_name:${quote(t)})`;
  if (organismFilter) {
    const o = organismFilter.trim();
    q += /^\d+$/.test(o) ? ` AND (organism_id:${o})` : ` AND (organism_name:${quote(o)})`;
  }
  return q;
}

class UniprotClient {
  constructor(private readonly http: UpstreamClient) {}

  private release(res: UpstreamResponse): string | null {
    return str(res.headers.get('x-uniprot-release'));
  }

  async lookup(operation: string, query: string, organismFilter: string | null): Promise<SourceResult> {
    const q = query.trim();
    if (operation === 'entry') {
      const acc = q.toUpperCase();
      if (!UNIPROT_ACCESSION_RE.test(acc)) return { status: 'invalid_query' };
      const res = await this.http.request(`/uniprotkb/${acc}`, { query: { format: 'json' } });
      if (res.status === 404) return { status: 'not_found' };
      if (res.status === 400) return { status: 'invalid_query' };
      if (res.status !== 200) throw new UpstreamFailure('upstream', `uniprot: HTTP ${res.status}`, res.status);
      const body = res.json();
      if (!isObj(body) || !str(body.primaryAccession)) throw new UpstreamFailure('upstream', 'uniprot: entry without primaryAccession');
      if (typeof body.entryType === 'string' && /inactive/i.test(body.entryType)) return { status: 'not_found' }; // deleted or merged entry
      const data = entry(body);
      return { status: 'found', record_id: data.accession, title: data.protein_name, url: uniprotEntryUrl(data.accession), release: this.release(res), data };
    }
    if (operation === 'search') {
      const res = await this.http.request('/uniprotkb/search', {
        query: { query: uniprotSearchQuery(q, organismFilter), format: 'json', size: LIMITS.proteinsSearchRows, fields: SEARCH_FIELDS },
      });
      if (res.status === 400) return { status: 'invalid_query' };
      if (res.status !== 200) throw new UpstreamFailure('upstream', `uniprot: HTTP ${res.status}`, res.status);
      const body = res.json();
      const results = arr(isObj(body) ? body.results : null)
        .filter(isObj)
        .filter((e) => str(e.primaryAccession))
        .map(summary);
      const [top] = results;
      if (!top) return { status: 'not_found' };
      const total = int(res.headers.get('x-total-results'));
      return {
        status: 'found',
        record_id: top.accession,
        title: top.protein_name,
        url: uniprotEntryUrl(top.accession),
        release: this.release(res),
        data: { organism: organismFilter, total_count: total ?? results.length, results },
      };
    }
    return { status: 'invalid_query' };
  }
}

export const uniprotSource: SourceDefinition = {
  key: 'uniprot',
  source: 'uniprot',
  endpoint: 'proteins',
  operations: ['entry', 'search'],
  license: 'CC BY 4.0',
  attribution: 'UniProt Knowledgebase, The UniProt Consortium (https://www.uniprot.org), licensed CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/).',
  hosts: ['uniprot'],
  ratePerSecond: 10,
  create(ctx) {
    const client = new UniprotClient(hostOf(ctx, 'uniprot'));
    return { lookup: (operation, query, params) => client.lookup(operation, query, params.organism) };
  },
};
