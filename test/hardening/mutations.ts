// The fuzz test's request model: a Draft (one operation's parameters and body, as values) that
// mutations rewrite, and its encoding into the bytes that go on the wire.
import crypto from 'node:crypto';
import fc from 'fast-check';
import type { Wire } from './wire.js';

export type Auth = { kind: 'token' | 'key' | 'none' | 'both' } | { kind: 'custom'; headers: Record<string, string> };

export interface Part {
  name: string;
  value: string | Buffer;
  filename?: string;
  contentType?: string;
}

export type Body = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'form'; value: Record<string, string> } | { kind: 'multipart'; parts: Part[] };

export interface Draft {
  /** Path parameters, percent-encoded as they go into the path. */
  path: Record<string, string>;
  /** Query pairs, percent-encoded (a name may repeat). */
  query: [string, string][];
  headers: Record<string, string>;
  auth: Auth;
  body: Body;
  /** Content-Type: undefined for the body's own, null for none at all. */
  contentType?: string | null;
  /** Bytes sent instead of the encoded body. */
  rawBody?: Buffer;
  /** Multipart without its closing boundary, sent with a Content-Length larger than the body. */
  truncated?: boolean;
  /** Another method than the operation's. */
  method?: string;
}

// ---------------------------------------------------------------------------------------------
// Raw JSON: a marker string in a JSON value that the encoder replaces with these exact bytes
// (number literals JSON.stringify cannot write, nesting too deep to build as objects, bytes that
// are not UTF-8).

const RAW_MARK = '\u0001raw:';
const RAW_RE = /"\\u0001raw:([0-9a-f]*)\\u0001"/g;

export function raw(bytes: string | Buffer): string {
  return `${RAW_MARK}${Buffer.from(bytes).toString('hex')}\u0001`;
}

export function encodeJson(value: unknown): Buffer {
  const text = JSON.stringify(value) ?? 'null';
  const out: Buffer[] = [];
  let last = 0;
  for (const m of text.matchAll(RAW_RE)) {
    out.push(Buffer.from(text.slice(last, m.index), 'utf8'), Buffer.from(m[1] ?? '', 'hex'));
    last = m.index + m[0].length;
  }
  out.push(Buffer.from(text.slice(last), 'utf8'));
  return Buffer.concat(out);
}

/** Percent-encodes every UTF-16 code unit, lone surrogates too (as their 3-byte CESU form: not UTF-8). */
export function encodeLoose(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const next = s.charCodeAt(i + 1);
    if (c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(s.slice(i, i + 2));
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      out += [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    } else {
      out += encodeURIComponent(s[i] ?? '');
    }
  }
  return out;
}

export function multipart(parts: Part[], boundary: string, close = true): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disp = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
    const type = p.filename !== undefined ? `\r\nContent-Type: ${p.contentType ?? 'application/octet-stream'}` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disp}${type}\r\n\r\n`), Buffer.from(p.value), Buffer.from('\r\n'));
  }
  if (close) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

// ---------------------------------------------------------------------------------------------
// Encoding a draft

export interface Credentials {
  token: string;
  key: string;
}

const BOUNDARY = '----crucible-fuzz-boundary';

export function toWire(op: { method: string; path: string }, d: Draft, creds: Credentials, kind: string, note: string): Wire {
  const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => d.path[name] ?? '');
  const qs = d.query.map(([k, v]) => `${k}=${v}`).join('&');
  const headers: Record<string, string> = { ...d.headers };
  let body: Buffer | undefined;
  let type: string | undefined;
  switch (d.body.kind) {
    case 'json':
      body = encodeJson(d.body.value);
      type = 'application/json';
      break;
    case 'form':
      body = Buffer.from(new URLSearchParams(d.body.value).toString());
      type = 'application/x-www-form-urlencoded';
      break;
    case 'multipart':
      body = multipart(d.body.parts, BOUNDARY, !d.truncated);
      type = `multipart/form-data; boundary=${BOUNDARY}`;
      break;
  }
  if (d.rawBody) body = d.rawBody;
  const ct = d.contentType === undefined ? type : d.contentType;
  if (ct) headers['content-type'] = ct;
  const a = d.auth;
  if (a.kind === 'token' || a.kind === 'both') headers.authorization = `Bearer ${creds.token}`;
  if (a.kind === 'key' || a.kind === 'both') headers['x-api-key'] = creds.key;
  if (a.kind === 'custom') Object.assign(headers, a.headers);
  return {
    op: `${op.method} ${op.path}`,
    kind,
    note,
    method: d.method ?? op.method,
    path: qs ? `${path}?${qs}` : path,
    headers,
    ...(body !== undefined ? { body } : {}),
    ...(d.truncated ? { truncated: { abortAfterMs: 2000 } } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Mutations: arbitraries of functions that rewrite a draft (fast-check draws their parameters,
// so a seed fixes them), returning a note of what was done.

export type Target = { where: 'query' | 'path' | 'form' | 'part'; name: string } | { where: 'json'; at: (string | number)[] };

/** One value in the three forms a target takes: inside JSON, percent-encoded in a URL, raw in a form or multipart field. */
export interface Val {
  json: unknown;
  url: string;
  text: string;
  label: string;
}

export function val(json: unknown, url?: string, text?: string, label?: string): Val {
  const t = text ?? (typeof json === 'string' ? json : JSON.stringify(json));
  return { json, url: url ?? encodeLoose(t), text: t, label: label ?? JSON.stringify(json).slice(0, 60) };
}

/** A number literal as sent: raw in JSON (no JSON.stringify rounding), as is in URLs and fields. */
export const literal = (n: string): Val => ({ json: raw(n), url: n, text: n, label: n });

function clone<T>(v: T): T {
  return structuredClone(v);
}

/** Every node of a JSON value (objects, arrays and leaves), root first; at most `max`. */
export function jsonPaths(v: unknown, max = 200): (string | number)[][] {
  const out: (string | number)[][] = [];
  const walk = (x: unknown, at: (string | number)[]) => {
    if (out.length >= max) return;
    out.push(at);
    if (Array.isArray(x)) x.forEach((y, i) => walk(y, [...at, i]));
    else if (x && typeof x === 'object') for (const [k, y] of Object.entries(x)) walk(y, [...at, k]);
  };
  walk(v, []);
  return out;
}

export function setAt(root: unknown, at: (string | number)[], value: unknown): unknown {
  if (!at.length) return value;
  const copy = clone(root) as any;
  let node = copy;
  for (const k of at.slice(0, -1)) node = node[k];
  node[at[at.length - 1]!] = value;
  return copy;
}

export function deleteAt(root: unknown, at: (string | number)[]): unknown {
  if (!at.length) return undefined;
  const copy = clone(root) as any;
  let node = copy;
  for (const k of at.slice(0, -1)) node = node[k];
  const last = at[at.length - 1]!;
  if (Array.isArray(node) && typeof last === 'number') node.splice(last, 1);
  else delete node[last];
  return copy;
}

/** Where a value can go in this draft: declared query and path parameters, and the body's fields. */
export function targetsOf(d: Draft, queryNames: string[]): Target[] {
  const out: Target[] = [];
  for (const name of Object.keys(d.path)) out.push({ where: 'path', name });
  for (const name of queryNames) out.push({ where: 'query', name });
  if (d.body.kind === 'json') for (const at of jsonPaths(d.body.value)) out.push({ where: 'json', at });
  if (d.body.kind === 'form') for (const name of Object.keys(d.body.value)) out.push({ where: 'form', name });
  if (d.body.kind === 'multipart') for (const p of d.body.parts) if (p.filename === undefined) out.push({ where: 'part', name: p.name });
  return out;
}

export function describeTarget(t: Target): string {
  if (t.where === 'json') return `body${t.at.map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('')}`;
  return `${t.where} ${t.name}`;
}

export function put(d: Draft, t: Target, v: Val): Draft {
  const out: Draft = { ...d, path: { ...d.path }, query: [...d.query] };
  switch (t.where) {
    case 'path':
      out.path[t.name] = v.url;
      break;
    case 'query':
      out.query = [...d.query.filter(([k]) => k !== t.name), [t.name, v.url]];
      break;
    case 'json':
      if (d.body.kind === 'json') out.body = { kind: 'json', value: setAt(d.body.value, t.at, v.json) };
      break;
    case 'form':
      if (d.body.kind === 'form') out.body = { kind: 'form', value: { ...d.body.value, [t.name]: v.text } };
      break;
    case 'part':
      if (d.body.kind === 'multipart')
        out.body = { kind: 'multipart', parts: d.body.parts.map((p) => (p.name === t.name && p.filename === undefined ? { ...p, value: v.text } : p)) };
      break;
  }
  return out;
}

/** A hex digest short enough for a note. */
export const digest = (b: Buffer | string) => crypto.createHash('sha256').update(b).digest('hex').slice(0, 8);

/**
 * A mutation: an arbitrary of functions that rewrite a draft. `slot` is the request's index in its
 * stream: mutations walk their targets and variants with it (from a random start), so a stream
 * of n requests covers n of them rather than n random draws.
 */
export type Mutation = fc.Arbitrary<(d: Draft, slot: number) => { draft: Draft; note: string }>;
