// A local stand-in for all seven upstream hosts (they share one node:http server on 127.0.0.1):
// it answers the services' real paths with the recorded payloads of test/fixtures/lookups/,
// logs every request, and can be switched to fail (500), throttle (429) or hang.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MemoryLookupCache } from '../../src/lookups/cache.js';
import { RateLimiterRegistry } from '../../src/lookups/rate-limit.js';
import { LookupService, type LookupServiceOptions } from '../../src/lookups/service.js';
import { HOST_KEYS, type HostKey } from '../../src/lookups/types.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/lookups');
export const fixture = (rel: string): any => JSON.parse(fs.readFileSync(path.join(FIXTURES, rel), 'utf8'));

interface LoggedRequest {
  method: string;
  path: string;
  /** The request target as sent (path and query, still percent-encoded). */
  rawUrl: string;
  headers: http.IncomingHttpHeaders;
  query: URLSearchParams;
  body: string;
  at: number;
}

type Mode = 'ok' | 'error500' | 'slow' | 'status429';

interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

const ASPIRIN_SMILES = new Set(['CC(=O)Oc1ccccc1C(=O)O', 'CC(=O)OC1=CC=CC=C1C(=O)O']);
// (E)-2-(prop-1-enyl)benzoic acid contains benzoic acid: the stand-in reuses that answer for it.
const BENZOIC_SMILES = new Set(['c1ccccc1C(=O)O', 'O=C(O)c1ccccc1', 'OC(=O)c1ccccc1', 'C/C=C/c1ccccc1C(=O)O']);

function similarityAnswer(smiles: string, threshold: number): Answer {
  if (smiles.includes('(((')) return { status: 400, body: { error_message: 'Invalid SMILES' } };
  return { status: 200, body: fixture(ASPIRIN_SMILES.has(smiles) && threshold <= 100 ? 'chembl/similarity-aspirin-70.json' : 'chembl/molecule-search-empty.json') };
}
const substructureAnswer = (smiles: string): Answer => ({
  status: 200,
  body: fixture(BENZOIC_SMILES.has(smiles) ? 'chembl/substructure-benzoic.json' : 'chembl/molecule-search-empty.json'),
});

function pubchem(method: string, p: string, q: URLSearchParams, body: string): Answer | null {
  let m = /^\/rest\/pug\/compound\/name\/(.+)\/(property\/Title,SMILES|cids)\/JSON$/.exec(p);
  let name: string | null = null;
  let what: string | null = null;
  if (m?.[1] && m[2] && method === 'GET') {
    name = decodeURIComponent(m[1]);
    what = m[2];
  }
  const post = /^\/rest\/pug\/compound\/name\/(property\/Title,SMILES|cids)\/JSON$/.exec(p);
  if (post?.[1] && method === 'POST') {
    name = new URLSearchParams(body).get('name');
    what = post[1];
  }
  if (name !== null && what) {
    const key = name.toLowerCase();
    if (what === 'cids') {
      if (key === 'aspirin') return { status: 200, body: fixture('pubchem/name-aspirin.cids.json') };
      if (key === 'benzene') return { status: 200, body: fixture('pubchem/name-benzene.cids.json') };
      return { status: 404, body: fixture('pubchem/notfound.json') };
    }
    if (key === 'aspirin') return { status: 200, body: fixture('pubchem/name-aspirin.property.json') };
    if (key === 'glucose') return { status: 200, body: fixture('pubchem/name-glucose.property.json') };
    if (key === 'sertraline' || key === 'olaparib') return { status: 200, body: fixture(`pubchem/name-${key}.property.json`) };
    if (key === 'd/l-glucose') return { status: 200, body: fixture('pubchem/name-glucose.property.json') };
    return { status: 404, body: fixture('pubchem/notfound.json') };
  }
  m = /^\/rest\/pug_view\/data\/compound\/(\d+)\/JSON$/.exec(p);
  if (m && method === 'GET') {
    if (q.get('heading') !== 'Experimental Properties') return { status: 400, body: { Fault: { Code: 'PUGVIEW.BadRequest', Message: 'Invalid heading' } } };
    if (m[1] === '2244') return { status: 200, body: fixture('pubchem/pugview-2244-experimental.json') };
    if (m[1] === '241') return { status: 200, body: fixture('pubchem/pugview-241-experimental.json') };
    return { status: 404, body: fixture('pubchem/pugview-notfound.json') };
  }
  return null;
}

function chembl(method: string, p: string, q: URLSearchParams, rawUrl: string, headers: http.IncomingHttpHeaders, body: string): Answer | null {
  if (!p.startsWith('/chembl/api/data/')) return null;
  const r = p.slice('/chembl/api/data/'.length);
  // Like EBI's front end (encoded slashes not allowed in paths): %2F or %5C in the path is refused.
  if (/^[^?]*(?:%2F|%5C)/i.test(rawUrl)) return { status: 404, body: '<html><body>Not Found</body></html>', headers: { 'content-type': 'text/html' } };
  if (method === 'POST') {
    // The official client's list queries: POST {resource}.json, X-HTTP-Method-Override: GET,
    // a JSON body of [key, value] pairs with percent-quoted string values.
    const m = /^(similarity|substructure)\.json$/.exec(r);
    if (!m || String(headers['x-http-method-override'] ?? '').toUpperCase() !== 'GET') return { status: 405, body: '' };
    let pairs: unknown;
    try {
      pairs = JSON.parse(body);
    } catch {
      return { status: 400, body: { error_message: 'body is not JSON' } };
    }
    const f = new Map<string, string>(
      (Array.isArray(pairs) ? pairs : Object.entries(pairs as object)).map(([k, v]: [string, unknown]) => [k, typeof v === 'string' ? decodeURIComponent(v) : String(v)]),
    );
    const smiles = f.get('smiles');
    if (!smiles) return { status: 400, body: { error_message: 'Structure or identifier required.' } };
    return m[1] === 'similarity' ? similarityAnswer(smiles, Number(f.get('similarity'))) : substructureAnswer(smiles);
  }
  if (method !== 'GET') return null;
  if (r === 'status.json') return { status: 200, body: fixture('chembl/status.json') };
  let m = /^molecule\/(CHEMBL\d+)\.json$/.exec(r);
  if (m) return m[1] === 'CHEMBL25' ? { status: 200, body: fixture('chembl/molecule-CHEMBL25.json') } : { status: 404, body: '' };
  if (r === 'molecule/search.json')
    return { status: 200, body: fixture(q.get('q')?.toLowerCase() === 'aspirin' ? 'chembl/molecule-search-aspirin.json' : 'chembl/molecule-search-empty.json') };
  m = /^target\/(CHEMBL\d+)\.json$/.exec(r);
  if (m) return m[1] === 'CHEMBL203' ? { status: 200, body: fixture('chembl/target-CHEMBL203.json') } : { status: 404, body: '' };
  if (r === 'target/search.json')
    return { status: 200, body: fixture(q.get('q')?.toLowerCase() === 'egfr' ? 'chembl/target-search-egfr.json' : 'chembl/target-search-empty.json') };
  if (r === 'activity.json') {
    if (q.get('molecule_chembl_id') === 'CHEMBL25') return { status: 200, body: fixture('chembl/activity-molecule-CHEMBL25.json') };
    if (q.get('target_chembl_id') === 'CHEMBL203') return { status: 200, body: fixture('chembl/activity-target-CHEMBL203.json') };
    return { status: 200, body: fixture('chembl/activity-empty.json') };
  }
  m = /^similarity\/(.+)\/(\d+)\.json$/.exec(r);
  if (m?.[1] && m[2]) return similarityAnswer(decodeURIComponent(m[1]), Number(m[2]));
  m = /^substructure\/(.+)\.json$/.exec(r);
  if (m?.[1]) return substructureAnswer(decodeURIComponent(m[1]));
  return { status: 404, body: '' };
}

function opentargets(method: string, p: string, body: string): Answer | null {
  if (p !== '/api/v4/graphql') return null;
  if (method !== 'POST') return { status: 405, body: '' };
  let req: { query?: string; variables?: Record<string, any> };
  try {
    req = JSON.parse(body);
  } catch {
    return { status: 400, body: { errors: [{ message: 'Must provide query string.' }] } };
  }
  const query = req.query ?? '';
  const v = req.variables ?? {};
  if (!query.includes('meta { dataVersion')) return { status: 400, body: { errors: [{ message: 'stand-in: query must ask meta.dataVersion' }] } };
  if (query.includes('knownDrugs')) return { status: 400, body: { errors: [{ message: 'Cannot query field "knownDrugs" on type "Target".' }] } };
  if (query.includes('search(')) {
    const entity = (v.entityNames ?? [])[0];
    const qq = String(v.q ?? '').toLowerCase();
    if (entity === 'target' && qq === 'egfr') return { status: 200, body: fixture('opentargets/search-target-EGFR.json') };
    if (entity === 'disease' && qq === 'non-small cell lung carcinoma') return { status: 200, body: fixture('opentargets/search-disease-nsclc.json') };
    return { status: 200, body: fixture('opentargets/search-empty.json') };
  }
  if (query.includes('associatedDiseases'))
    return { status: 200, body: fixture(v.id === 'ENSG00000146648' ? 'opentargets/target-ENSG00000146648-associations.json' : 'opentargets/target-null.json') };
  if (query.includes('associatedTargets'))
    return { status: 200, body: fixture(v.id === 'EFO_0003060' ? 'opentargets/disease-EFO_0003060-associations.json' : 'opentargets/disease-null.json') };
  if (query.includes('target(ensemblId') && query.includes('drugAndClinicalCandidates'))
    return { status: 200, body: fixture(v.id === 'ENSG00000146648' ? 'opentargets/target-ENSG00000146648-drugs.json' : 'opentargets/target-null.json') };
  if (query.includes('disease(efoId') && query.includes('drugAndClinicalCandidates'))
    return { status: 200, body: fixture(v.id === 'EFO_0003060' ? 'opentargets/disease-EFO_0003060-drugs.json' : 'opentargets/disease-null.json') };
  return { status: 400, body: { errors: [{ message: 'stand-in: unknown query' }] } };
}

function uniprot(method: string, p: string, q: URLSearchParams): Answer | null {
  if (method !== 'GET' || !p.startsWith('/uniprotkb/')) return null;
  const release = { 'x-uniprot-release': '2025_01', 'x-uniprot-release-date': '05-February-2025' };
  if (p === '/uniprotkb/search') {
    const query = q.get('query') ?? '';
    if (q.get('format') !== 'json') return { status: 400, body: { messages: ['format'] } };
    if (/gene:"EGFR"/.test(query)) return { status: 200, body: fixture('uniprot/search-EGFR-human.json'), headers: { ...release, 'x-total-results': '2' } };
    return { status: 200, body: fixture('uniprot/search-empty.json'), headers: { ...release, 'x-total-results': '0' } };
  }
  const acc = decodeURIComponent(p.slice('/uniprotkb/'.length));
  if (acc === 'P00533') return { status: 200, body: fixture('uniprot/P00533.json'), headers: release };
  if (/^[A-Z0-9]{6,10}$/.test(acc)) return { status: 404, body: fixture('uniprot/notfound.json'), headers: release };
  return { status: 400, body: fixture('uniprot/invalid.json'), headers: release };
}

function rcsb(method: string, p: string, body: string): Answer | null {
  const m = /^\/rest\/v1\/core\/entry\/([^/]+)$/.exec(p);
  if (m && method === 'GET') return m[1] === '4HHB' ? { status: 200, body: fixture('rcsb/entry-4HHB.json') } : { status: 404, body: fixture('rcsb/entry-notfound.json') };
  if (p === '/rcsbsearch/v2/query' && method === 'POST') {
    const req = JSON.parse(body);
    if (req.return_type !== 'entry') return { status: 400, body: { status: 400, message: 'return_type' } };
    const s = JSON.stringify(req.query);
    if (req.query?.service === 'full_text' && req.query?.parameters?.value === 'hemoglobin') return { status: 200, body: fixture('rcsb/search-hemoglobin.json') };
    if (s.includes('reference_sequence_identifiers.database_accession') && s.includes('"P69905"') && s.includes('"UniProt"'))
      return { status: 200, body: fixture('rcsb/search-uniprot-P69905.json') };
    return { status: 204 };
  }
  if (p === '/graphql' && method === 'POST') {
    const req = JSON.parse(body);
    const ids: string[] = req.variables?.ids ?? [];
    const all = fixture('rcsb/graphql-entries.json');
    all.data.entries = all.data.entries.filter((e: any) => ids.includes(e.rcsb_id));
    return { status: 200, body: all };
  }
  return null;
}

/**
 * The RCSB file host: GET /download/{ID}.pdb answers the PDB-format file (text/plain, as
 * files.rcsb.org does) or 404 with an HTML page. 1IEP is a fixture in that format
 * (test/fixtures/lookups/rcsb/1IEP.pdb: chain A, the ligand, two waters and a sulfate).
 */
function rcsbFiles(method: string, p: string): Answer | null {
  const m = /^\/download\/([^/]+)\.pdb$/.exec(p);
  if (!m || method !== 'GET') return null;
  if (m[1]?.toUpperCase() === '1IEP')
    return { status: 200, body: fs.readFileSync(path.join(FIXTURES, 'rcsb/1IEP.pdb'), 'utf8'), headers: { 'content-type': 'text/plain; charset=utf-8' } };
  return { status: 404, body: '<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>', headers: { 'content-type': 'text/html' } };
}

export class StandIn {
  readonly requests: LoggedRequest[] = [];
  mode: Mode = 'ok';
  slowMs = 3000;
  retryAfter: string | null = null;
  private server: http.Server;
  base = '';

  constructor() {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => this.handle(req, res, Buffer.concat(chunks).toString('utf8')));
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.base = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  reset(): void {
    this.requests.length = 0;
    this.mode = 'ok';
    this.retryAfter = null;
  }

  /** Base URLs for every host, pointing at this stand-in (with a path, which must be ignored). */
  urls(): Record<HostKey, string> {
    return Object.fromEntries(HOST_KEYS.map((h) => [h, `${this.base}/ignored-prefix`])) as Record<HostKey, string>;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse, body: string): void {
    const u = new URL(req.url ?? '/', 'http://stand-in');
    const method = req.method ?? 'GET';
    this.requests.push({ method, path: u.pathname, rawUrl: req.url ?? '/', headers: req.headers, query: u.searchParams, body, at: Date.now() });
    const send = (a: Answer) => {
      if (res.destroyed) return;
      const headers: Record<string, string> = { ...(a.headers ?? {}) };
      let text = '';
      if (a.body !== undefined && a.body !== '') {
        text = typeof a.body === 'string' ? a.body : JSON.stringify(a.body);
        headers['content-type'] ??= 'application/json';
      }
      res.writeHead(a.status, headers);
      res.end(a.status === 204 ? undefined : text);
    };
    if (this.mode === 'slow') {
      const t = setTimeout(() => send({ status: 200, body: {} }), this.slowMs);
      res.on('close', () => clearTimeout(t));
      return;
    }
    if (this.mode === 'error500') return send({ status: 500, body: { error: 'stand-in: internal error' } });
    if (this.mode === 'status429') return send({ status: 429, body: '', headers: this.retryAfter ? { 'retry-after': this.retryAfter } : {} });
    const a =
      pubchem(method, u.pathname, u.searchParams, body) ??
      chembl(method, u.pathname, u.searchParams, req.url ?? '/', req.headers, body) ??
      opentargets(method, u.pathname, body) ??
      uniprot(method, u.pathname, u.searchParams) ??
      rcsb(method, u.pathname, body) ??
      rcsbFiles(method, u.pathname);
    send(a ?? { status: 404, body: { error: `stand-in: no route for ${method} ${u.pathname}` } });
  }
}

/** A local URL nothing listens on (a port just bound and released): a request there fails at once. */
export async function closedPortBase(): Promise<string> {
  const srv = http.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return `http://127.0.0.1:${port}`;
}

/** The CRUCIBLE_*_URL variable of every lookup host. */
export const LOOKUP_URL_VARS = [
  'CRUCIBLE_PUBCHEM_URL',
  'CRUCIBLE_CHEMBL_URL',
  'CRUCIBLE_OPENTARGETS_URL',
  'CRUCIBLE_UNIPROT_URL',
  'CRUCIBLE_RCSB_SEARCH_URL',
  'CRUCIBLE_RCSB_DATA_URL',
  'CRUCIBLE_RCSB_FILES_URL',
] as const;

/** Tests never reach a public service: every lookup URL must be a loopback address. */
export function assertLocalUrls(urls: Record<string, string>): void {
  for (const [host, url] of Object.entries(urls)) {
    const h = new URL(url).hostname;
    if (h !== '127.0.0.1' && h !== 'localhost' && h !== '[::1]') throw new Error(`test set-up: lookup host ${host} points at ${url}, not at a local stand-in`);
  }
}

/** A service wired to the stand-in with fast test settings; fresh cache and rate limiters. */
export function serviceFor(standIn: StandIn, o: Partial<LookupServiceOptions> = {}): LookupService {
  // Every host explicitly (a missing one would fall back to the public default).
  const urls = { ...standIn.urls(), ...(o.urls ?? {}) };
  assertLocalUrls(urls);
  return new LookupService({
    cache: new MemoryLookupCache(),
    rateLimiters: new RateLimiterRegistry(),
    rateLimits: { pubchem: 1000, chembl: 1000, opentargets: 1000, uniprot: 1000, rcsb: 1000 },
    timeoutMs: 2000,
    retries: 2,
    backoffBaseMs: 5,
    backoffMaxMs: 20,
    ...o,
    urls,
  });
}
