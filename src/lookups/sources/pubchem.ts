// PubChem PUG-REST: compound name -> CID(s), SMILES and title.
//   GET  /rest/pug/compound/name/{name}/property/Title,SMILES/JSON
//   POST /rest/pug/compound/name/property/Title,SMILES/JSON   (body name=...; for names with "/")
//   GET  /rest/pug/compound/name/{name}/cids/JSON             (used by the properties lookup)
// Answers: 200 {"PropertyTable":{"Properties":[{"CID":2244,"SMILES":"...","Title":"Aspirin"}, ...]}}
// (one entry per matching CID, best match first); 404 {"Fault":{"Code":"PUGREST.NotFound",...}};
// 400 {"Fault":{"Code":"PUGREST.BadRequest",...}}. Since 2025 PubChem answers the `SMILES`
// key (formerly IsomericSMILES); the parser reads both.
import type { UpstreamClient } from '../http.js';
import { UpstreamFailure } from '../http.js';
import { arr, hostOf, int, isObj, str, type SourceDefinition } from '../source.js';
import type { SourceResult } from '../types.js';

export const PUBCHEM_LICENSE = 'NCBI public domain; depositor terms apply';
export const PUBCHEM_ATTRIBUTION =
  'PubChem, National Center for Biotechnology Information (https://pubchem.ncbi.nlm.nih.gov). NCBI data are in the public domain; depositor terms apply to deposited data.';
export const pubchemCompoundUrl = (cid: number) => `https://pubchem.ncbi.nlm.nih.gov/compound/${cid}`;

interface CompoundData {
  cid: number;
  other_cids: number[];
  smiles: string | null;
  title: string | null;
}

/** Whether a found item's data (from the client or the cache) is a CompoundData. */
export function isCompoundData(v: unknown): v is CompoundData {
  return (
    isObj(v) &&
    typeof v.cid === 'number' &&
    Array.isArray(v.other_cids) &&
    v.other_cids.every((c) => typeof c === 'number') &&
    (v.smiles === null || typeof v.smiles === 'string') &&
    (v.title === null || typeof v.title === 'string')
  );
}

function pugFault(body: unknown): string | null {
  return isObj(body) && isObj(body.Fault) ? (str(body.Fault.Code) ?? null) : null;
}

/** Maps a non-200 PUG answer: 404 -> not_found, 400 -> invalid_query, anything else fails. */
function pugStatus(pubchem: UpstreamClient, status: number, text: string): 'not_found' | 'invalid_query' {
  if (status === 404) return 'not_found';
  if (status === 400) return 'invalid_query';
  let code: string | null = null;
  try {
    code = pugFault(JSON.parse(text));
  } catch {
    /* not JSON */
  }
  throw new UpstreamFailure('upstream', `${pubchem.source}: HTTP ${status}${code ? ` ${code}` : ''}`, status);
}

async function compoundByName(pubchem: UpstreamClient, name: string): Promise<SourceResult> {
  const res = name.includes('/')
    ? await pubchem.request('/rest/pug/compound/name/property/Title,SMILES/JSON', { form: { name } })
    : await pubchem.request(`/rest/pug/compound/name/${encodeURIComponent(name)}/property/Title,SMILES/JSON`);
  if (res.status !== 200) return { status: pugStatus(pubchem, res.status, res.text) };
  const body = res.json();
  const props = arr(isObj(body) && isObj(body.PropertyTable) ? body.PropertyTable.Properties : null).filter(isObj);
  const cids: number[] = [];
  // The entry of the best match (the first valid CID) gives SMILES and title.
  let first: Record<string, unknown> | undefined;
  for (const p of props) {
    const c = int(p.CID);
    if (c !== null && c > 0 && !cids.includes(c)) {
      cids.push(c);
      first ??= p;
    }
  }
  const [cid, ...otherCids] = cids;
  if (cid === undefined || first === undefined) return { status: 'not_found' };
  const data: CompoundData = {
    cid,
    other_cids: otherCids,
    smiles: str(first.SMILES) ?? str(first.IsomericSMILES) ?? str(first.CanonicalSMILES) ?? str(first.ConnectivitySMILES),
    title: str(first.Title),
  };
  return { status: 'found', record_id: String(data.cid), title: data.title, url: pubchemCompoundUrl(data.cid), release: null, data };
}

/** CIDs for a name, best match first; [] when PubChem has none. */
export async function cidsByName(pubchem: UpstreamClient, name: string): Promise<number[] | 'invalid_query'> {
  const res = name.includes('/')
    ? await pubchem.request('/rest/pug/compound/name/cids/JSON', { form: { name } })
    : await pubchem.request(`/rest/pug/compound/name/${encodeURIComponent(name)}/cids/JSON`);
  if (res.status !== 200) {
    const s = pugStatus(pubchem, res.status, res.text);
    return s === 'not_found' ? [] : s;
  }
  const body = res.json();
  const list = arr(isObj(body) && isObj(body.IdentifierList) ? body.IdentifierList.CID : null);
  return list.map(int).filter((c): c is number => c !== null && c > 0);
}

export const pubchemSource: SourceDefinition = {
  key: 'pubchem',
  source: 'pubchem',
  endpoint: 'compounds',
  operations: ['names'],
  license: PUBCHEM_LICENSE,
  attribution: PUBCHEM_ATTRIBUTION,
  hosts: ['pubchem'],
  ratePerSecond: 5,
  compoundNameOperations: ['names'],
  create(ctx) {
    const pubchem = hostOf(ctx, 'pubchem');
    return {
      async lookup(_operation, query) {
        return compoundByName(pubchem, query);
      },
    };
  },
};
