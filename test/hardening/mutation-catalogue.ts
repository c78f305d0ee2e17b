// The fuzz test's mutations: for each operation, the ways a request is broken, each with its
// share of the operation's requests (docs/reliability.md, "Fuzzing").
import fc from 'fast-check';
import {
  describeTarget,
  encodeJson,
  encodeLoose,
  jsonPaths,
  deleteAt,
  literal,
  multipart,
  put,
  raw,
  setAt,
  targetsOf,
  val,
  type Credentials,
  type Draft,
  type Mutation,
  type Part,
  type Val,
} from './mutations.js';
import type { Operation } from './operations.js';

export const pick = <T>(list: T[], n: number): T | undefined => (list.length ? list[n % list.length] : undefined);

/** Replaces one target (parameter or body field) with one of `values`: each pass over the targets takes the next value. */
export function replaceOne(name: string, op: Operation, values: Val[]): Mutation {
  const queryNames = op.params.filter((p) => p.in === 'query').map((p) => p.name);
  return fc.tuple(fc.nat(), fc.nat()).map(([n, m]) => (d: Draft, slot: number) => {
    const all = targetsOf(d, queryNames);
    const t = pick(all, slot + n);
    const v = pick(values, m + Math.floor(slot / Math.max(1, all.length)))!;
    if (!t) return { draft: d, note: `${name}: no target` };
    return { draft: put(d, t, v), note: `${describeTarget(t)} = ${v.label}` };
  });
}

export const WRONG_TYPES: Val[] = [
  val('not-a-number'),
  val(''),
  val(1.5),
  val(-7),
  val(true),
  val(false),
  val(null, 'null'),
  val([], '%5B%5D'),
  val({}, '%7B%7D'),
  val([1, 'two', null], '%5B1%2C%22two%22%5D'),
  val({ a: { b: 1 } }, '%7B%22a%22%3A1%7D'),
  val('NaN'),
  val('Infinity'),
  val('0x1F'),
  val('1e3'),
  val(' 12 '),
];
export const HUGE_NUMBERS = [
  '99999999999999999999',
  '9223372036854775808',
  '9223372036854775807',
  '2147483648',
  '9007199254740993',
  '1e308',
  '1.7976931348623157e308',
  '1e400',
  '-1e400',
  '123456789012345678901234567890.5',
].map(literal);
export const TINY_NUMBERS = ['-1', '-99999999999999999999', '-9223372036854775809', '-2147483649', '1e-400', '5e-324', '-0', '0', '0.000001', '-1e308'].map(literal);
export const NULS = ['\u0000', 'a\u0000b', 'CCO\u0000', '\u0000\u0000', '%00\u0000'].map((s) => val(s));
export const SURROGATES = ['\ud800', '\udfff', 'x\udc00y', '\ud83d', 'a\ud800\ud800b', '\udc00\ud800'].map((s) => val(s));
export const ODD_CHARACTERS = ['\uffff', '\ufffe', '\ufeffabc', '\u202eevil', '\u0001\u001f\u007f', 'e\u0301', '\u{10ffff}', '\u2028\u2029'].map((s) => val(s));
export const NASTY_STRINGS = [
  "' OR '1'='1",
  "'; DROP TABLE jobs; --",
  '${jndi:ldap://x}',
  '<script>alert(1)</script>',
  '{{7*7}}',
  '%s%s%s%n',
  '\\',
  '"',
  'line\r\nX-Injected: 1',
  '$where',
  '{"$gt":""}',
  '*',
  '%',
  '_',
  // Names every JavaScript object has: a lookup table keyed by client input must not find them.
  '__proto__',
  'constructor',
  'valueOf',
  '-toString',
  'hasOwnProperty',
].map((s) => val(s));
export const INVALID_UTF8: Val[] = [[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0x80], [0xf8, 0x88, 0x80, 0x80, 0x80]].map((bytes) => ({
  json: raw(Buffer.concat([Buffer.from('"a'), Buffer.from(bytes), Buffer.from('b"')])),
  url: `a${bytes.map((b) => `%${b.toString(16).toUpperCase()}`).join('')}b`,
  text: `a${Buffer.from(bytes).toString('latin1')}b`,
  label: `invalid UTF-8 ${Buffer.from(bytes).toString('hex')}`,
}));
export const BAD_URL_ESCAPES = ['%', '%zz', '%u0041', '%%41', '%E2%82'];

/** A long string, as its length and character: built only when its request is sent (they reach megabytes). */
export function hugeString(forUrl: boolean): fc.Arbitrary<[number, string]> {
  return fc.tuple(fc.constantFrom(...(forUrl ? [4_096, 20_000] : [4_096, 70_000, 1_200_000])), fc.constantFrom('a', 'é', '😀', ' ', '%', '\u0000'));
}

export function hugeVal([n, c]: [number, string], forUrl: boolean): Val {
  const s = c.repeat(Math.ceil(n / c.length));
  return { json: s, url: forUrl ? encodeLoose(s) : '', text: s, label: `${n} x ${JSON.stringify(c)}` };
}

export function deep(levels: number, shape: 'array' | 'object'): string {
  return shape === 'array' ? '['.repeat(levels) + ']'.repeat(levels) : '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
}

export const BAD_PATH_VALUES = (uuid: string) => [
  '..',
  '../../../etc/passwd',
  '..%2F..%2F..%2Fetc%2Fpasswd',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '%252e%252e%252fetc%252fpasswd',
  '....%2F%2F....%2F%2Fetc',
  '..%5C..%5Cwindows%5Cwin.ini',
  '..;%2F',
  'not-a-uuid',
  uuid.toUpperCase(),
  `${uuid}0`,
  `${uuid.slice(0, -1)}g`,
  `%7B${uuid}%7D`,
  '%00',
  `${uuid}%00`,
  '%20',
  '',
  '*',
  'null',
  'undefined',
  '-1',
  '99999999999999999999',
  'a'.repeat(5000),
  '%ED%A0%80',
  '%FF',
  `${uuid}%2F..`,
  "'%20OR%201=1--",
];

export const CONTENT_TYPES: (string | null)[] = [
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=zzz',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/merge-patch+json',
  'application/octet-stream',
  '*/*',
  'application/',
  ';;;',
  'APPLICATION/JSON',
  'application/json, text/plain',
  null,
];

export const INVALID_JSON = [
  '{',
  '{"a":',
  '[1,2',
  'nul',
  "{'a':1}",
  '{"a":1,}',
  '\ufeff{}',
  'NaN',
  '{"a":1}{"b":2}',
  '"unterminated',
  '',
  ' ',
  '{"a":1]',
  '{"a" 1}',
  '\u0000',
  '{"a":"\\x41"}',
  '{"a":"\\u12"}',
  '[' + '['.repeat(5000),
  '{"a":01}',
  '{"a":.5}',
  '{"a":+1}',
  '{"a":1e}',
  '{"a":true false}',
  '/* comment */ {}',
];

/**
 * The mutations that apply to an operation, each with its shares of the operation's requests:
 * those that replace one target get one share per target (`targets`, counted on a sample
 * draft), those with many variants a few.
 */
export function mutationsFor(op: Operation, creds: Credentials, targets: number): { name: string; arb: Mutation; shares: number }[] {
  const list: { name: string; arb: Mutation; shares: number }[] = [];
  const hasTargets = op.params.some((p) => p.in !== 'header') || !!op.body;
  const json = op.body?.kind === 'json';
  const add = (name: string, arb: Mutation, shares = 1) => list.push({ name, arb, shares });
  const perTarget = Math.max(1, Math.min(targets, 8));
  const queryNames = op.params.filter((p) => p.in === 'query').map((p) => p.name);

  if (hasTargets) {
    add('wrong-type', replaceOne('wrong-type', op, WRONG_TYPES), perTarget);
    add('huge-number', replaceOne('huge-number', op, HUGE_NUMBERS), perTarget);
    add('tiny-number', replaceOne('tiny-number', op, TINY_NUMBERS), perTarget);
    add('nul', replaceOne('nul', op, NULS), perTarget);
    add('lone-surrogate', replaceOne('lone-surrogate', op, SURROGATES), perTarget);
    add('odd-characters', replaceOne('odd-characters', op, ODD_CHARACTERS));
    add('nasty-string', replaceOne('nasty-string', op, NASTY_STRINGS), perTarget);
    add(
      'huge-string',
      fc.tuple(fc.nat(), hugeString(false), hugeString(true)).map(([n, body, url]) => (d: Draft, slot: number) => {
        const t = pick(targetsOf(d, queryNames), slot + n);
        if (!t) return { draft: d, note: 'no target' };
        const v = t.where === 'query' || t.where === 'path' ? hugeVal(url, true) : hugeVal(body, false);
        return { draft: put(d, t, v), note: `${describeTarget(t)} = ${v.label}` };
      }),
      perTarget,
    );
    add(
      'invalid-utf8',
      fc.tuple(fc.nat(), fc.constantFrom(...INVALID_UTF8), fc.constantFrom(...BAD_URL_ESCAPES)).map(([n, v, esc]) => (d: Draft, slot: number) => {
        const t = pick(targetsOf(d, queryNames), slot + n);
        if (!t) return { draft: d, note: 'no target' };
        // Half the URL cases are malformed escapes rather than bytes that are not UTF-8.
        const w = (t.where === 'query' || t.where === 'path') && n % 2 ? { ...v, url: `x${esc}`, label: `malformed escape ${esc}` } : v;
        return { draft: put(d, t, w), note: `${describeTarget(t)} = ${w.label}` };
      }),
      perTarget,
    );
    add(
      'missing-required',
      fc.nat().map((n) => (d: Draft, slot: number) => {
        const required: { note: string; apply: () => Draft }[] = [];
        for (const p of op.params.filter((x) => x.in === 'query' && x.required))
          required.push({ note: `without query ${p.name}`, apply: () => ({ ...d, query: d.query.filter(([k]) => k !== p.name) }) });
        for (const p of op.params.filter((x) => x.in === 'path')) required.push({ note: `path ${p.name} empty`, apply: () => ({ ...d, path: { ...d.path, [p.name]: '' } }) });
        if (d.body.kind === 'json') {
          const body = d.body.value;
          for (const at of jsonPaths(body).filter((a) => a.length > 0))
            required.push({ note: `without body${at.map((k) => `.${k}`).join('')}`, apply: () => ({ ...d, body: { kind: 'json', value: deleteAt(body, at) } }) });
          required.push({ note: 'no body', apply: () => ({ ...d, body: { kind: 'none' }, contentType: 'application/json' }) });
        }
        if (d.body.kind === 'form') {
          const form = d.body.value;
          for (const k of Object.keys(form))
            required.push({
              note: `without form ${k}`,
              apply: () => ({ ...d, body: { kind: 'form', value: Object.fromEntries(Object.entries(form).filter(([x]) => x !== k)) } }),
            });
        }
        if (d.body.kind === 'multipart') {
          const parts = d.body.parts;
          for (const p of parts) required.push({ note: `without part ${p.name}`, apply: () => ({ ...d, body: { kind: 'multipart', parts: parts.filter((x) => x !== p) } }) });
        }
        const r = pick(required, slot + n);
        return r ? { draft: r.apply(), note: r.note } : { draft: d, note: 'nothing required' };
      }),
      perTarget,
    );
    add(
      'extra-field',
      fc.tuple(fc.nat(), fc.constantFrom('fuzz_extra', '__proto__', 'constructor', 'prototype', '', 'a'.repeat(300))).map(([n, key]) => (d: Draft, slot: number) => {
        const choices: { note: string; apply: () => Draft }[] = [
          { note: `query ${key || '(empty name)'}=1`, apply: () => ({ ...d, query: [...d.query, [encodeLoose(key), '1']] }) },
        ];
        if (d.body.kind === 'json') {
          const body = d.body.value;
          for (const at of jsonPaths(body)) {
            const node = at.reduce<any>((x, k) => x?.[k], body);
            if (node && typeof node === 'object' && !Array.isArray(node))
              choices.push({
                note: `body${at.map((k) => `.${k}`).join('')}.${key || '(empty)'} added`,
                apply: () => ({ ...d, body: { kind: 'json', value: setAt(body, [...at, key], { polluted: true }) } }),
              });
          }
        }
        if (d.body.kind === 'form') {
          const form = d.body.value;
          choices.push({ note: `form ${key} added`, apply: () => ({ ...d, body: { kind: 'form', value: { ...form, [key]: 'x' } } }) });
        }
        if (d.body.kind === 'multipart') {
          const parts = d.body.parts;
          choices.push({ note: `part ${key} added`, apply: () => ({ ...d, body: { kind: 'multipart', parts: [...parts, { name: key, value: 'x' }] } }) });
        }
        const c = pick(choices, slot + n)!;
        return { draft: c.apply(), note: c.note };
      }),
      2,
    );
  }
  if (queryNames.length)
    add(
      'duplicate-param',
      fc.tuple(fc.nat(), fc.constantFrom('1', '2', 'x', '')).map(([n, v]) => (d: Draft, slot: number) => {
        const name = pick(queryNames, slot + n)!;
        const first = d.query.find(([k]) => k === name)?.[1] ?? '0';
        return { draft: { ...d, query: [...d.query.filter(([k]) => k !== name), [name, first], [name, v]] }, note: `query ${name} twice (${first}, ${v})` };
      }),
      Math.min(queryNames.length, 4),
    );
  if (op.params.some((p) => p.in === 'path'))
    add(
      'bad-path-param',
      fc.tuple(fc.nat(), fc.uuid()).map(([n, uuid]) => (d: Draft, slot: number) => {
        const names = Object.keys(d.path);
        const name = pick(names, slot)!;
        const v = pick(BAD_PATH_VALUES(uuid), n + Math.floor(slot / Math.max(1, names.length)))!;
        return { draft: { ...d, path: { ...d.path, [name]: v } }, note: `path ${name} = ${v.slice(0, 60)}` };
      }),
      6,
    );
  if (op.body) {
    add(
      'wrong-content-type',
      fc.nat().map((n) => (d: Draft, slot: number) => {
        const ct = pick(CONTENT_TYPES, slot + n)!;
        return { draft: { ...d, contentType: ct }, note: `content-type ${ct ?? '(none)'}` };
      }),
      2,
    );
    add(
      'invalid-json',
      fc.nat().map((n) => (d: Draft, slot: number) => {
        const bad = pick(INVALID_JSON, slot + n)!;
        if (slot % 3 === 2 && d.body.kind === 'json') {
          const full = encodeJson(d.body.value);
          const cut = full.subarray(0, n % Math.max(1, full.length));
          return { draft: { ...d, rawBody: cut, contentType: 'application/json' }, note: `JSON cut at byte ${cut.length} of ${full.length}` };
        }
        return { draft: { ...d, rawBody: Buffer.from(bad), contentType: 'application/json' }, note: `body ${JSON.stringify(bad.slice(0, 40))}` };
      }),
      op.body.kind === 'json' ? 3 : 1,
    );
  } else {
    add(
      'body-on-get',
      fc
        .tuple(fc.constantFrom(...INVALID_JSON, '{"a":1}'), fc.constantFrom('application/json', 'text/plain', 'multipart/form-data; boundary=x'))
        .map(([b, ct]) => (d: Draft) => ({ draft: { ...d, rawBody: Buffer.from(b), contentType: ct }, note: `${ct} body ${JSON.stringify(b.slice(0, 40))}` })),
    );
  }
  if (json) {
    add(
      'deep-nesting',
      fc
        .tuple(fc.nat(), fc.constantFrom(64, 1_000, 10_000, 50_000), fc.constantFrom<'array' | 'object'>('array', 'object'))
        .map(([n, levels, shape]) => (d: Draft, slot: number) => {
          const targets = d.body.kind === 'json' ? jsonPaths(d.body.value) : [[]];
          const at = pick(targets, slot + n) ?? [];
          const value = d.body.kind === 'json' ? setAt(d.body.value, at, raw(deep(levels, shape))) : raw(deep(levels, shape));
          return { draft: { ...d, body: { kind: 'json', value } }, note: `body${at.map((k) => `.${k}`).join('')} = ${levels} nested ${shape}s` };
        }),
    );
    add(
      'prototype-keys',
      fc.constantFrom('{"__proto__":{"polluted":true,"tier":3},', '{"constructor":{"prototype":{"polluted":true}},', '{"__proto__":null,').map((prefix) => (d: Draft) => {
        const full = d.body.kind === 'json' ? encodeJson(d.body.value).toString('utf8') : '{}';
        const out = full.startsWith('{') ? prefix + (full === '{}' ? '"x":1}' : full.slice(1)) : full;
        return { draft: { ...d, rawBody: Buffer.from(out), contentType: 'application/json' }, note: `body with ${prefix.slice(1, 30)}…` };
      }),
    );
  }
  add(
    'bad-auth',
    fc.tuple(fc.nat(), fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 40 })).map(([n, junk]) => (d: Draft, slot: number) => {
      const t = creds.token;
      const k = creds.key;
      const variants: [string, Record<string, string>][] = [
        ['Bearer (empty)', { authorization: 'Bearer ' }],
        ['Bearer junk', { authorization: `Bearer ${junk}` }],
        ['Bearer x.y.z', { authorization: 'Bearer x.y.z' }],
        ['tampered JWT signature', { authorization: `Bearer ${t.slice(0, -4)}AAAA` }],
        ['JWT with alg none', { authorization: `Bearer ${t.split('.')[0]?.replace(/./g, 'e')}.${t.split('.')[1]}.` }],
        ['lowercase scheme', { authorization: `bearer ${t}` }],
        ['Basic credentials', { authorization: 'Basic dXNlcjpwYXNz' }],
        ['8 KiB token', { authorization: `Bearer ${'a'.repeat(8000)}` }],
        ['Token scheme', { authorization: `Token ${t}` }],
        ['API key prefix only', { 'x-api-key': 'crk_' }],
        ['API key junk', { 'x-api-key': `crk_${junk.replace(/[^\w]/g, 'x')}_${'x'.repeat(40)}` }],
        ['API key tampered', { 'x-api-key': `${k.slice(0, -1)}${k.endsWith('A') ? 'B' : 'A'}` }],
        ['API key with space', { 'x-api-key': `${k} ` }],
        ['10 KiB API key', { 'x-api-key': 'k'.repeat(10_000) }],
        ['empty API key', { 'x-api-key': '' }],
        ['valid token and junk key', { authorization: `Bearer ${t}`, 'x-api-key': 'crk_nope' }],
        ['junk token and valid key', { authorization: 'Bearer nope', 'x-api-key': k }],
        ['valid token and valid key', { authorization: `Bearer ${t}`, 'x-api-key': k }],
      ];
      const [label, headers] = pick(variants, slot + n)!;
      return { draft: { ...d, auth: { kind: 'custom', headers } }, note: label };
    }),
    3,
  );
  if (op.idempotent)
    add(
      'idempotency-key',
      fc.tuple(fc.nat(), fc.uuid()).map(([n, uuid]) => (d: Draft, slot: number) => {
        const headers = { ...d.headers };
        delete headers['idempotency-key'];
        const variants: [string, Draft][] = [
          ['no Idempotency-Key with an API key', { ...d, headers, auth: { kind: 'key' } }],
          ['empty Idempotency-Key', { ...d, headers: { ...headers, 'idempotency-key': '' } }],
          ['256-character Idempotency-Key', { ...d, headers: { ...headers, 'idempotency-key': 'k'.repeat(256) } }],
          ['4 KiB Idempotency-Key', { ...d, headers: { ...headers, 'idempotency-key': 'k'.repeat(4096) } }],
          ['Latin-1 Idempotency-Key', { ...d, headers: { ...headers, 'idempotency-key': `clé-${uuid}` } }],
          ['reused Idempotency-Key (another body)', { ...d, headers: { ...headers, 'idempotency-key': 'fuzz-reused-key' } }],
          ['Idempotency-Key reused across methods', { ...d, headers: { ...headers, 'idempotency-key': 'fuzz-shared-key' } }],
        ];
        const [label, draft] = pick(variants, slot + n)!;
        return { draft, note: label };
      }),
      3,
    );
  add(
    'other-method',
    // Not DELETE: on two paths it is a real operation, and would delete the rows the other requests read.
    fc
      .constantFrom('GET', 'POST', 'PUT', 'PATCH', 'OPTIONS', 'HEAD')
      .map((m) => (d: Draft) => ({ draft: { ...d, method: m === op.method ? 'PUT' : m }, note: `as ${m === op.method ? 'PUT' : m}` })),
  );
  if (op.body?.kind === 'multipart') {
    add(
      'truncated-multipart',
      fc.constant((d: Draft) => ({ draft: { ...d, truncated: true }, note: 'multipart without its closing boundary, Content-Length 1 KiB over the body' })),
      2,
    );
    add(
      'nul-in-file',
      fc.tuple(fc.constantFrom('mols.smi', 'mols.csv', 'mols.sdf', 'blob.bin'), fc.constantFrom('molecules', 'file')).map(([filename, mode]) => (d: Draft) => {
        const content =
          filename === 'mols.csv'
            ? 'smiles,name\nCCO,eth\u0000anol\n'
            : filename === 'mols.sdf'
              ? '\u0000\n  x\n\nM  END\n$$$$\n'
              : 'CCO ethanol\nc1ccccc1\u0000 benzene\n\u0000\n';
        return {
          draft: {
            ...d,
            body: {
              kind: 'multipart',
              parts: [
                { name: 'mode', value: mode },
                { name: 'file', value: Buffer.from(content), filename },
              ],
            },
          },
          note: `${filename} (mode ${mode}) with NUL bytes`,
        };
      }),
      2,
    );
    add(
      'malformed-multipart',
      fc.nat().map((n) => (d: Draft, slot: number) => {
        const parts = d.body.kind === 'multipart' ? d.body.parts : [];
        const file: Part = { name: 'file', value: Buffer.from('CCO\n'), filename: 'a.smi' };
        const variants: [string, Partial<Draft>][] = [
          ['boundary in the header differs from the body', { contentType: 'multipart/form-data; boundary=other' }],
          ['no boundary parameter', { contentType: 'multipart/form-data' }],
          ['two file parts', { body: { kind: 'multipart', parts: [...parts, file, file] } }],
          [
            'file under another name',
            {
              body: {
                kind: 'multipart',
                parts: [
                  { name: 'mode', value: 'file' },
                  { ...file, name: 'upload' },
                ],
              },
            },
          ],
          ['2 KiB field', { body: { kind: 'multipart', parts: [...parts, { name: 'data_kind', value: 'k'.repeat(2048) }] } }],
          ['40 parts', { body: { kind: 'multipart', parts: [...parts, ...Array.from({ length: 40 }, (_, i) => ({ name: `p${i}`, value: 'x' }))] } }],
          ['empty body', { rawBody: Buffer.alloc(0) }],
          ['only the closing boundary', { rawBody: Buffer.from('------crucible-fuzz-boundary--\r\n') }],
          [
            'LF line ends',
            {
              rawBody: Buffer.from(
                multipart([{ name: 'mode', value: 'file' }, file], '----crucible-fuzz-boundary')
                  .toString('latin1')
                  .replace(/\r\n/g, '\n'),
                'latin1',
              ),
            },
          ],
          ['part without a name', { rawBody: Buffer.from('------crucible-fuzz-boundary\r\nContent-Disposition: form-data\r\n\r\nx\r\n------crucible-fuzz-boundary--\r\n') }],
          [
            'filename with path traversal',
            {
              body: {
                kind: 'multipart',
                parts: [
                  { name: 'mode', value: 'file' },
                  { ...file, filename: '../../../../etc/passwd' },
                ],
              },
            },
          ],
          [
            'filename of 2 KiB',
            {
              body: {
                kind: 'multipart',
                parts: [
                  { name: 'mode', value: 'file' },
                  { ...file, filename: `${'n'.repeat(2048)}.smi` },
                ],
              },
            },
          ],
          ['JSON instead of multipart', { rawBody: Buffer.from('{"mode":"file","file":"CCO"}'), contentType: 'application/json' }],
        ];
        const [label, patch] = pick(variants, slot + n)!;
        return { draft: { ...d, ...patch }, note: label };
      }),
      4,
    );
  }
  return list;
}
