// JSON Schema validation without HTTP: two Ajv instances (JSON values are not type-coerced;
// text such as query strings is) and the mapping of Ajv errors to input issues
// ({type, loc, msg, input}; docs/api-decisions.md, "Errors"). src/http/validation.ts uses it
// for requests; job types and workflows use it for payloads.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { Issue, Loc } from './errors.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    removeAdditional: false, // unknown fields are a 422, never silently dropped
    useDefaults: true,
    coerceTypes: coerce ? 'array' : false, // query strings and path params arrive as text
    strict: false,
    discriminator: true, // a oneOf tagged by a property (the utilities' `tool`) reports only the chosen branch's errors
  });
  addFormats(ajv);
  return ajv;
}

const jsonAjv = makeAjv(false);
const textAjv = makeAjv(true);
// Compiled validators by schema text: a process that builds the HTTP app more than once (a test
// file's server per database) compiles each distinct schema once. A validator is called and its
// `errors` read synchronously, so one function can serve every route that has its schema.
const jsonCompiled = new Map<string, ValidateFunction>();
const textCompiled = new Map<string, ValidateFunction>();

function compileOnce(ajv: Ajv, compiled: Map<string, ValidateFunction>, schema: object): ValidateFunction {
  const key = JSON.stringify(schema);
  let fn = compiled.get(key);
  if (!fn) {
    fn = ajv.compile(schema);
    compiled.set(key, fn);
  }
  return fn;
}

/** A validator for JSON values (no type coercion: a string is not a number), e.g. a job payload per type. */
export function compileJsonValidator(schema: object): ValidateFunction {
  return compileOnce(jsonAjv, jsonCompiled, schema);
}

/** A validator for values that arrive as text (query strings, path parameters): coerced to the schema's types. */
export function compileTextValidator(schema: object): ValidateFunction {
  return compileOnce(textAjv, textCompiled, schema);
}

const TYPE_NAMES: Record<string, string> = {
  string: 'string_type',
  integer: 'int_type',
  number: 'float_type',
  boolean: 'bool_type',
  array: 'list_type',
  object: 'dict_type',
  null: 'none_type',
};

function pointerToLoc(pointer: string): Loc {
  if (!pointer) return [];
  return pointer
    .split('/')
    .slice(1)
    .map((seg) => seg.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((seg) => (/^\d+$/.test(seg) ? Number(seg) : seg));
}

function valueAt(data: unknown, loc: Loc): unknown {
  let cur: unknown = data;
  for (const k of loc) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[k];
  }
  return cur;
}

function issueFor(e: ErrorObject, prefix: Loc, data: unknown): Issue | null {
  const path = pointerToLoc(e.instancePath);
  const p = e.params as Record<string, unknown>;
  const at = (extra?: string) => [...prefix, ...path, ...(extra !== undefined ? [extra] : [])];
  switch (e.keyword) {
    case 'required':
      return { type: 'missing', loc: at(String(p.missingProperty)), msg: 'Field required', input: valueAt(data, path) ?? null };
    case 'additionalProperties':
      return {
        type: 'extra_forbidden',
        loc: at(String(p.additionalProperty)),
        msg: 'Extra inputs are not permitted',
        input: valueAt(data, [...path, String(p.additionalProperty)]) ?? null,
      };
    case 'type':
      return {
        type: TYPE_NAMES[String(p.type).split(',')[0] ?? ''] ?? 'type_error',
        loc: at(),
        msg: `Input should be of type ${String(p.type)}`,
        input: valueAt(data, path) ?? null,
      };
    case 'maxLength':
      return { type: 'string_too_long', loc: at(), msg: `String should have at most ${String(p.limit)} characters`, input: valueAt(data, path) };
    case 'minLength':
      return { type: 'string_too_short', loc: at(), msg: `String should have at least ${String(p.limit)} character${p.limit === 1 ? '' : 's'}`, input: valueAt(data, path) };
    case 'maxItems':
      return { type: 'too_long', loc: at(), msg: `List should have at most ${String(p.limit)} items`, input: valueAt(data, path) };
    case 'minItems':
      return { type: 'too_short', loc: at(), msg: `List should have at least ${String(p.limit)} item${p.limit === 1 ? '' : 's'}`, input: valueAt(data, path) };
    case 'minimum':
      return { type: 'greater_than_equal', loc: at(), msg: `Input should be greater than or equal to ${String(p.limit)}`, input: valueAt(data, path) };
    case 'maximum':
      return { type: 'less_than_equal', loc: at(), msg: `Input should be less than or equal to ${String(p.limit)}`, input: valueAt(data, path) };
    case 'exclusiveMinimum':
      return { type: 'greater_than', loc: at(), msg: `Input should be greater than ${String(p.limit)}`, input: valueAt(data, path) };
    case 'exclusiveMaximum':
      return { type: 'less_than', loc: at(), msg: `Input should be less than ${String(p.limit)}`, input: valueAt(data, path) };
    case 'enum':
      return { type: 'enum', loc: at(), msg: allowedMessage(p.allowedValues as unknown[], valueAt(data, path)), input: valueAt(data, path) };
    case 'const':
      return { type: 'enum', loc: at(), msg: allowedMessage([p.allowedValue], valueAt(data, path)), input: valueAt(data, path) };
    case 'format':
      return { type: `${String(p.format).replace(/-/g, '')}_parsing`, loc: at(), msg: `Input should be a valid ${String(p.format)}`, input: valueAt(data, path) };
    case 'pattern':
      return { type: 'string_pattern_mismatch', loc: at(), msg: `String should match pattern '${String(p.pattern)}'`, input: valueAt(data, path) };
    case 'uniqueItems':
      return { type: 'unique_items', loc: at(), msg: 'List items should be unique', input: valueAt(data, path) };
    case 'discriminator': {
      const tag = String(p.tag);
      const value = valueAt(data, [...path, tag]);
      return value === undefined
        ? { type: 'missing', loc: at(tag), msg: 'Field required', input: valueAt(data, path) ?? null }
        : { type: 'union_tag_invalid', loc: at(tag), msg: `Input tag ${JSON.stringify(value)} is not one of the known values`, input: value };
    }
    case 'anyOf':
    case 'oneOf':
      return null; // the branch errors say more; keep those
    default:
      return { type: 'value_error', loc: at(), msg: e.message ?? 'Invalid value', input: valueAt(data, path) };
  }
}

/** Allowed values named in full up to this many; a longer list names the closest ones. */
const ALLOWED_NAMED = 30;
const CLOSEST_NAMED = 6;

/** Edit distance (Levenshtein) of two short strings, for the closest allowed values. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/**
 * "Input should be "a", "b" or "c"": every allowed value (docs/api-decisions.md, "Errors"), or,
 * for a long list, the ones closest to the input and where the whole list is.
 */
export function allowedMessage(values: unknown[], input: unknown): string {
  const join = (vs: unknown[]) => {
    const t = vs.map((v) => JSON.stringify(v));
    return t.length > 1 ? `${t.slice(0, -1).join(', ')} or ${t.at(-1)}` : (t[0] ?? '');
  };
  if (values.length <= ALLOWED_NAMED) return `Input should be ${join(values)}`;
  const key = typeof input === 'string' ? input.toLowerCase() : JSON.stringify(input ?? null);
  const closest = values
    .map((v, i) => ({ v, i, d: distance(key, typeof v === 'string' ? v.toLowerCase() : JSON.stringify(v)) }))
    .sort((a, b) => a.d - b.d || a.i - b.i)
    .slice(0, CLOSEST_NAMED)
    .map((x) => x.v);
  return `Input should be one of ${values.length} allowed values, the closest being ${join(closest)} (the field's schema in the API reference, /openapi.json or /docs, lists them all)`;
}

/**
 * A choice among fixed values (anyOf/oneOf of consts, as TypeBox writes a union of literals,
 * maybe with null) fails with one error per branch: Ajv's `const` errors would each name one
 * value, and only the first would be kept. They become one `enum` error naming every value of
 * the outermost such union at the same location (null included when it is a branch).
 */
function mergeConstUnions(errors: ErrorObject[]): ErrorObject[] {
  const unions = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  if (unions.length === 0) return errors;
  const groups = new Map<ErrorObject, ErrorObject[]>();
  for (const e of errors) {
    const choice = e.keyword === 'const' || e.keyword === 'enum' || (e.keyword === 'type' && (e.params as { type?: unknown }).type === 'null');
    if (!choice) continue;
    const outer = unions
      .filter((u) => u.instancePath === e.instancePath && e.schemaPath.startsWith(`${u.schemaPath}/`))
      .sort((a, b) => a.schemaPath.length - b.schemaPath.length)[0];
    if (outer) groups.set(outer, [...(groups.get(outer) ?? []), e]);
  }
  const replaced = new Map<ErrorObject, ErrorObject | null>();
  for (const members of groups.values()) {
    if (!members.some((e) => e.keyword !== 'type')) continue;
    const values: unknown[] = [];
    for (const e of members) {
      const p = e.params as { allowedValue?: unknown; allowedValues?: unknown[] };
      const add = e.keyword === 'const' ? [p.allowedValue] : e.keyword === 'enum' ? (p.allowedValues ?? []) : [null];
      for (const v of add) if (!values.some((w) => JSON.stringify(w) === JSON.stringify(v))) values.push(v);
    }
    const first = members[0]!;
    replaced.set(first, { ...first, keyword: 'enum', params: { allowedValues: values } });
    for (const e of members.slice(1)) replaced.set(e, null);
    // A literal's own type check ({type: 'string', const: ...}) says nothing the list does not.
    const literals = new Set(members.filter((e) => e.keyword === 'const').map((e) => e.schemaPath.replace(/\/const$/, '')));
    for (const e of errors) if (e.keyword === 'type' && e.instancePath === first.instancePath && literals.has(e.schemaPath.replace(/\/type$/, ''))) replaced.set(e, null);
  }
  return errors.flatMap((e) => {
    const r = replaced.get(e);
    return r === undefined ? [e] : r === null ? [] : [r];
  });
}

/**
 * For a nullable field (anyOf [T, null]) with a bad value, Ajv reports both branches: the
 * specific failure of T (e.g. date-time format) and "must be null". Only the first helps, so the
 * null branch's error is dropped whenever another branch of the same anyOf/oneOf failed too.
 */
function withoutNullBranches(errors: ErrorObject[]): ErrorObject[] {
  const unions = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  if (unions.length === 0) return errors;
  const inUnion = (e: ErrorObject, u: ErrorObject) => e !== u && e.schemaPath.startsWith(`${u.schemaPath}/`) && e.instancePath.startsWith(u.instancePath);
  return errors.filter((e) => {
    if (e.keyword !== 'type' || (e.params as { type?: unknown }).type !== 'null') return true;
    const union = unions.find((u) => u.instancePath === e.instancePath && inUnion(e, u));
    return !union || !errors.some((o) => o !== e && inUnion(o, union));
  });
}

/** Ajv errors as input issues whose loc starts with `prefix` (e.g. ["payload"]); `data` is the validated value. */
export function validationIssues(errors: ErrorObject[], prefix: Loc, data: unknown): Issue[] {
  const seen = new Set<string>();
  const issues: Issue[] = [];
  for (const e of withoutNullBranches(mergeConstUnions(errors))) {
    const issue = issueFor(e, prefix, data);
    if (!issue) continue;
    const key = `${issue.type}|${JSON.stringify(issue.loc)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  if (issues.length === 0) issues.push({ type: 'value_error', loc: prefix, msg: 'Invalid value', input: data ?? null });
  return issues;
}

const sharedIds = new Set<string>();

/**
 * Makes a schema with an $id resolvable by Type.Ref in both validators, once per process (an app
 * built again adds nothing). Not `ajv.getSchema(id)` to ask: that compiles the schema, and asked
 * of every shared schema it cost an app's second build 2 to 5 s of CPU.
 */
export function addSharedSchema(schema: { $id?: string }): void {
  if (!schema.$id || sharedIds.has(schema.$id)) return;
  sharedIds.add(schema.$id);
  for (const ajv of [jsonAjv, textAjv]) ajv.addSchema(schema);
}

/** A surrogate that is not half of a pair. */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why PostgreSQL cannot store `s` as text (a NUL character, a lone surrogate), or null. */
export function unstorable(s: string): string | null {
  if (s.includes('\u0000')) return 'a NUL character (U+0000)';
  const m = LONE_SURROGATE.exec(s);
  return m ? `a lone surrogate (U+${(m[0].codePointAt(0) ?? 0).toString(16).toUpperCase()})` : null;
}

/**
 * Issues for the values of a flat text map (query string, path parameters, form or multipart
 * fields; a value may be repeated) that PostgreSQL could not store, located at `[...root, name]`.
 */
export function unstorableFields(fields: unknown, root: Loc): Issue[] {
  if (fields === null || typeof fields !== 'object') return [];
  const issues: Issue[] = [];
  for (const [name, value] of Object.entries(fields as Record<string, unknown>)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      const bad = typeof v === 'string' ? unstorable(v) : null;
      if (bad) {
        issues.push({ type: 'string_unicode', loc: [...root, name], msg: `Text may not contain ${bad}`, input: null });
        break;
      }
    }
  }
  return issues;
}

/** Deepest nesting of objects and arrays a user's JSON may have (docs/api-decisions.md, "Limits"). */
export const MAX_JSON_DEPTH = 64;

/**
 * The first issue of a parsed JSON value from a user (a request body, an uploaded archive's
 * manifest): nested deeper than MAX_JSON_DEPTH levels (located at `root`; walks over user JSON
 * then stay shallow), or a string or key holding a NUL character or a lone surrogate (located at
 * the string; PostgreSQL cannot store them). Iterative, so any depth is safe to check.
 */
export function jsonValueIssue(value: unknown, root: Loc): Issue | null {
  const stack: { value: unknown; loc: Loc; depth: number }[] = [{ value, loc: root, depth: 0 }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { value: v, loc, depth } = item;
    if (typeof v === 'string') {
      const bad = unstorable(v);
      if (bad) return { type: 'string_unicode', loc, msg: `Strings may not contain ${bad}`, input: null };
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) return { type: 'too_deep', loc: root, msg: `JSON nested deeper than ${MAX_JSON_DEPTH} levels`, input: null };
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], loc: [...loc, i], depth: depth + 1 });
      continue;
    }
    const entries = Object.entries(v as Record<string, unknown>);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i] ?? ['', undefined];
      const badKey = unstorable(key);
      if (badKey)
        return {
          type: 'string_unicode',
          loc: [...loc, key.replaceAll('\u0000', '\uFFFD').replace(new RegExp(LONE_SURROGATE.source, 'g'), '\uFFFD')],
          msg: `Keys may not contain ${badKey}`,
          input: null,
        };
      stack.push({ value: child, loc: [...loc, key], depth: depth + 1 });
    }
  }
  return null;
}

/** A canonical UUID (ids of rows that are uuid columns: checked before a query, so a malformed id is a plain 404). */
export function isUuid(s: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);
}
