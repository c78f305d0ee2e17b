// PubChem PUG-View: measured (experimental) properties of a compound, with the depositor
// reference of every value.
//   GET /rest/pug/compound/name/{name}/cids/JSON                       (a name -> its best CID)
//   GET /rest/pug_view/data/compound/{cid}/JSON?heading=Experimental+Properties
// Answer: {"Record":{"RecordType":"CID","RecordNumber":2244,"RecordTitle":"Aspirin",
//   "Section":[{"TOCHeading":"Chemical and Physical Properties","Section":[{"TOCHeading":
//   "Experimental Properties","Section":[{"TOCHeading":"Boiling Point","Information":[{
//   "ReferenceNumber":12,"Reference":["..."],"Value":{"StringWithMarkup":[{"String":"140 °C"}]}}]}]}]}],
//   "Reference":[{"ReferenceNumber":12,"SourceName":"...","SourceID":"...","Name":"...","URL":"...",
//   "LicenseNote":"...","LicenseURL":"...","ANID":123}]}}
// 404 {"Fault":{"Code":"PUGVIEW.NotFound"}} when PubChem has no such record or heading.
// Values whose reference has no allowed licence (licenses.ts) are dropped and counted.
import { classifyReferenceLicense } from '../licenses.js';
import { UpstreamFailure } from '../http.js';
import { PROPERTY_HEADINGS, type PropertyName } from '../schemas.js';
import { arr, hostOf, int, isObj, num, str, type SourceDefinition } from '../source.js';
import type { SourceResult } from '../types.js';
import { cidsByName, PUBCHEM_ATTRIBUTION, PUBCHEM_LICENSE, pubchemCompoundUrl } from './pubchem.js';

interface PropertyValueData {
  value: string;
  number?: number | null;
  unit?: string | null;
  /** The PUG-View heading of the value (a property such as `other` collects several). */
  heading: string;
  reference: {
    source_name: string | null;
    source_id: string | null;
    name: string | null;
    url: string | null;
    license: string;
    license_url: string | null;
    license_note: string | null;
    citation: string | null;
  };
}

interface ExperimentalData {
  cid: number;
  title: string | null;
  properties: Record<string, PropertyValueData[]>;
  excluded: number;
}

const CID_RE = /^(?:cid[:\s]*)?(\d{1,12})$/i;

/** Collects every section (at any depth) by its TOCHeading. */
function sectionsByHeading(sections: unknown, out = new Map<string, Record<string, unknown>[]>()): Map<string, Record<string, unknown>[]> {
  for (const s of arr(sections)) {
    if (!isObj(s)) continue;
    const h = str(s.TOCHeading);
    if (h) {
      const list = out.get(h) ?? [];
      list.push(s);
      out.set(h, list);
    }
    if (s.Section) sectionsByHeading(s.Section, out);
  }
  return out;
}

function valueOf(v: unknown): { value: string; number?: number | null; unit?: string | null } | null {
  if (!isObj(v)) return null;
  const strings = arr(v.StringWithMarkup)
    .map((m) => (isObj(m) ? str(m.String) : null))
    .filter((s): s is string => s !== null);
  if (strings.length) return { value: strings.join(' ') };
  const numbers = arr(v.Number)
    .map(num)
    .filter((n): n is number => n !== null);
  if (numbers.length) {
    const unit = str(v.Unit);
    return { value: `${numbers.join(', ')}${unit ? ' ' + unit : ''}`, number: numbers[0], unit };
  }
  return null;
}

function parseExperimental(body: unknown, wanted: readonly string[], limit: number): ExperimentalData | null {
  const record = isObj(body) && isObj(body.Record) ? body.Record : null;
  if (!record) return null;
  const cid = int(record.RecordNumber);
  if (cid === null) return null;
  const refs = new Map<number, Record<string, unknown>>();
  for (const r of arr(record.Reference)) {
    if (!isObj(r)) continue;
    const n = int(r.ReferenceNumber);
    if (n !== null) refs.set(n, r);
  }
  const byHeading = sectionsByHeading(record.Section);
  const properties: Record<string, PropertyValueData[]> = {};
  let excluded = 0;
  for (const name of wanted) {
    const values: PropertyValueData[] = [];
    const sections = (PROPERTY_HEADINGS[name as PropertyName] ?? []).flatMap((heading) => (byHeading.get(heading) ?? []).map((section) => ({ heading, section })));
    for (const { heading, section } of sections) {
      for (const info of arr(section.Information)) {
        if (!isObj(info)) continue;
        const v = valueOf(info.Value);
        if (!v) continue;
        const ref = refs.get(int(info.ReferenceNumber) ?? -1);
        const license = classifyReferenceLicense(ref);
        if (!license) {
          excluded++;
          continue;
        }
        if (values.length >= limit) continue;
        const citations = arr(info.Reference).filter((c): c is string => typeof c === 'string');
        values.push({
          ...v,
          heading,
          reference: {
            source_name: str(ref?.SourceName),
            source_id: str(ref?.SourceID),
            name: str(ref?.Name),
            url: str(ref?.URL),
            license,
            license_url: str(ref?.LicenseURL),
            license_note: str(ref?.LicenseNote),
            citation: citations.length ? citations.join('; ') : null,
          },
        });
      }
    }
    properties[name] = values;
  }
  return { cid, title: str(record.RecordTitle), properties, excluded };
}

export const pubchemViewSource: SourceDefinition = {
  key: 'pubchem-view',
  source: 'pubchem',
  endpoint: 'properties',
  operations: ['experimental'],
  license: PUBCHEM_LICENSE,
  attribution: PUBCHEM_ATTRIBUTION + ' Experimental property values carry their depositor reference; only depositors with an allowed licence are included.',
  hosts: ['pubchem'],
  ratePerSecond: 5,
  compoundNameOperations: ['experimental'],
  // 2: a property may collect several headings (`other`: critical constants...), values carry `heading`.
  cacheVersion: 2,
  create(ctx) {
    const pubchem = hostOf(ctx, 'pubchem');
    return {
      async lookup(_operation, query, params): Promise<SourceResult> {
        let cid: number;
        const m = CID_RE.exec(query.trim());
        if (m) cid = Number(m[1]);
        else {
          const cids = await cidsByName(pubchem, query);
          if (cids === 'invalid_query') return { status: 'invalid_query' };
          const [best] = cids;
          if (best === undefined) return { status: 'not_found' };
          cid = best;
        }
        const res = await pubchem.request(`/rest/pug_view/data/compound/${cid}/JSON`, { query: { heading: 'Experimental Properties' } });
        if (res.status === 404) return { status: 'not_found' };
        if (res.status === 400) return { status: m ? 'invalid_query' : 'not_found' };
        if (res.status !== 200) throw new UpstreamFailure('upstream', `pubchem: HTTP ${res.status}`, res.status);
        const data = parseExperimental(res.json(), params.properties, params.limit);
        if (!data) throw new UpstreamFailure('upstream', 'pubchem: PUG-View answer without a Record');
        return {
          status: 'found',
          record_id: String(data.cid),
          title: data.title,
          url: `${pubchemCompoundUrl(data.cid)}#section=Experimental-Properties`,
          release: null,
          data,
        };
      },
    };
  },
};
