// JSON Schemas of /openapi.json as Python types, for the Python SDK's generated models
// (clients/python/crucible_client/_models.py; docs/api-decisions.md, "Python SDK
// compatibility"). What the server answers becomes a dataclass (decoded by the client's runtime,
// unknown fields kept), what a caller sends a TypedDict (a plain dict literal, checked by a type
// checker). Enums are Literal types; unions of objects that the server answers also take a plain
// dict, the variant a newer server may add.

export type Schema = Record<string, any>;
export type Side = 'res' | 'req';

export interface PyField {
  py: string;
  json: string;
  type: string;
  required: boolean;
  /** Python source of the default of an optional dataclass field. */
  default: string;
  doc: string;
}

export interface PyClass {
  name: string;
  side: Side;
  doc: string;
  fields: PyField[];
  /** The list field to_dataframe() reads (dataclasses only). */
  table: string | null;
}

const KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield match case'.split(
    ' ',
  ),
);
/** Names a model's field cannot take: the runtime's own attributes. */
const RESERVED = new Set(['additional_properties', 'to_dict', 'from_dict', 'to_dataframe']);
/** The list that to_dataframe() reads, in order of preference, when a model has several. */
const TABLE_FIELDS = [
  'items',
  'results',
  'compounds',
  'predictions',
  'rows',
  'clusters',
  'events',
  'keys',
  'points',
  'conformers',
  'poses',
  'templates',
  'models',
  'papers',
  'engines',
  'runs',
  'steps',
];

export const pascal = (s: string): string =>
  s
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .map((w) => (w ? w[0]!.toUpperCase() + w.slice(1) : ''))
    .join('');

export const snake = (s: string): string =>
  s
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toLowerCase();

/** A JSON property name as a Python identifier: keywords and the runtime's names get a trailing `_`. */
export function pyName(json: string): string {
  let n = json.replace(/[^A-Za-z0-9_]/g, '_');
  if (/^[0-9]/.test(n)) n = `n_${n}`;
  if (KEYWORDS.has(n) || RESERVED.has(n)) n = `${n}_`;
  return n;
}

/** A JSON value as Python source (strings are JSON strings, which Python reads the same). */
export function pyLiteral(v: unknown): string {
  if (v === null) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(pyLiteral).join(', ')}]`;
  return `{${Object.entries(v as Record<string, unknown>)
    .map(([k, x]) => `${JSON.stringify(k)}: ${pyLiteral(x)}`)
    .join(', ')}}`;
}

const oneLine = (s: unknown): string => (typeof s === 'string' ? s.replace(/\s+/g, ' ').trim() : '');

/** Components reachable from a value (following $ref through the components). */
export function reachable(value: unknown, schemas: Record<string, Schema>, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) reachable(v, schemas, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') {
        const name = refName(v);
        if (!out.has(name)) {
          out.add(name);
          reachable(schemas[name], schemas, out);
        }
      } else reachable(v, schemas, out);
    }
  }
  return out;
}

export const refName = (ref: string): string => ref.slice(ref.lastIndexOf('/') + 1);

const isObjectWithProps = (s: Schema | undefined): boolean => !!s && s.properties !== undefined && Object.keys(s.properties).length > 0;

/**
 * Turns schemas into Python type expressions, collecting the classes and aliases they need.
 * `both` are the components used on both sides: their TypedDict is named <Name>Param.
 */
export class PythonTypes {
  readonly classes: PyClass[] = [];
  /** name -> [side, Python expression], in the order they were made. */
  readonly aliases = new Map<string, string>();
  private readonly taken = new Set<string>();
  private readonly done = new Map<string, string>();

  constructor(
    private readonly schemas: Record<string, Schema>,
    private readonly both: Set<string>,
  ) {}

  /** A component's schema. */
  schema(name: string): Schema {
    const s = this.schemas[name];
    if (!s) throw new Error(`unknown component ${name}`);
    return s;
  }

  private claim(name: string): string {
    let n = name;
    for (let i = 2; this.taken.has(n); i++) n = `${name}${i}`;
    this.taken.add(n);
    return n;
  }

  /** The Python name of a component on one side, made on first use. */
  component(name: string, side: Side): string {
    const key = `${side}:${name}`;
    const known = this.done.get(key);
    if (known) return known;
    const schema = this.schemas[name];
    if (!schema) throw new Error(`unknown component ${name}`);
    const py = this.claim(side === 'req' && this.both.has(name) ? `${name}Param` : name);
    this.done.set(key, py);
    if (isObjectWithProps(schema)) this.makeClass(py, schema, side);
    else this.aliases.set(py, this.type(schema, side, py));
    return py;
  }

  /** A request TypedDict may also take the dataclass the server answered (e.g. a WorkflowSpec read back). */
  private refType(name: string, side: Side): string {
    const own = this.component(name, side);
    if (side === 'req' && this.both.has(name)) return `${own} | ${this.component(name, 'res')}`;
    return own;
  }

  /** A Python type expression for `schema`; `ctx` names the classes its inline objects become. */
  type(schema: Schema | undefined | boolean, side: Side, ctx: string): string {
    if (schema === undefined || schema === true || schema === false) return 'Any';
    if (typeof schema.$ref === 'string') return this.refType(refName(schema.$ref), side);
    if (Array.isArray(schema.enum)) return literal(schema.enum);
    const branches: Schema[] | undefined = schema.anyOf ?? schema.oneOf;
    if (branches) return this.union(branches, side, ctx);
    switch (schema.type) {
      case 'string':
        return schema.format === 'binary' ? 'bytes' : 'str';
      case 'integer':
        return 'int';
      case 'number':
        return 'float';
      case 'boolean':
        return 'bool';
      case 'null':
        return 'None';
      case 'array':
        return `list[${this.type(schema.items, side, `${ctx}Item`)}]`;
      case 'object':
      case undefined:
        if (isObjectWithProps(schema)) return this.makeClass(this.claim(ctx), schema, side);
        if (schema.additionalProperties && typeof schema.additionalProperties === 'object') return `dict[str, ${this.type(schema.additionalProperties, side, `${ctx}Value`)}]`;
        return schema.type === 'object' ? 'dict[str, Any]' : 'Any';
      default:
        return 'Any';
    }
  }

  private union(branches: Schema[], side: Side, ctx: string): string {
    const parts: string[] = [];
    const literals: unknown[] = [];
    let nullable = false;
    let objects = 0;
    branches.forEach((b, i) => {
      if (b.type === 'null') nullable = true;
      else if (Array.isArray(b.enum) && !b.$ref) literals.push(...(b.enum as unknown[]));
      else {
        const t = this.type(b, side, isObjectWithProps(b) ? branchName(b, ctx, i) : ctx);
        // A nested union of literals (an enum inside a nullable) merges into this one.
        const m = /^Literal\[(.*)\]$/.exec(t);
        if (m && !t.includes('] | ')) literals.push(...splitLiteral(m[1]!));
        else parts.push(t);
        if (b.$ref ? isObjectWithProps(this.schemas[refName(b.$ref)]) || !!this.schemas[refName(b.$ref)]?.oneOf : isObjectWithProps(b)) objects++;
      }
    });
    if (literals.length) parts.unshift(literal(literals));
    if (side === 'res' && objects >= 2) parts.push('dict[str, Any]');
    if (nullable) parts.push('None');
    return [...new Set(parts)].join(' | ') || 'Any';
  }

  private makeClass(name: string, schema: Schema, side: Side): string {
    const cls: PyClass = { name, side, doc: oneLine(schema.description ?? schema.title), fields: [], table: null };
    this.classes.push(cls);
    const required = new Set<string>(schema.required ?? []);
    const tables: string[] = [];
    for (const [json, prop] of Object.entries<Schema>(schema.properties)) {
      const type = this.type(prop, side, `${name}${pascal(json)}`);
      const req = required.has(json);
      let def = '';
      if (!req && side === 'res') {
        const d = prop.default;
        if (Array.isArray(d) && d.length === 0) def = 'field(default_factory=list)';
        else if (d && typeof d === 'object' && Object.keys(d).length === 0) def = 'field(default_factory=dict)';
        else if (d === undefined || d === null || typeof d === 'object') def = 'None';
        else def = pyLiteral(d);
      }
      const nullable = def === 'None' && !/(^|\| )None$/.test(type);
      cls.fields.push({
        py: pyName(json),
        json,
        type: nullable ? `${type} | None` : type,
        required: req,
        default: def,
        doc: oneLine(prop.description ?? prop.anyOf?.[0]?.description),
      });
      if (side === 'res' && this.isListOfObjects(prop)) tables.push(json);
    }
    if (new Set(cls.fields.map((f) => f.py)).size !== cls.fields.length) throw new Error(`${name}: two properties make one Python name`);
    // Else the one list of records besides the errors and warnings a result may also list.
    const records = tables.filter((t) => t !== 'errors' && t !== 'warnings');
    cls.table = TABLE_FIELDS.find((t) => tables.includes(t)) ?? (records.length === 1 ? records[0]! : tables.length === 1 ? tables[0]! : null);
    return name;
  }

  private isListOfObjects(prop: Schema): boolean {
    const arr: Schema | undefined = prop.type === 'array' ? prop : (prop.anyOf ?? []).find((b: Schema) => b.type === 'array');
    if (!arr) return false;
    let items: Schema | undefined = arr.items;
    if (items?.$ref) items = this.schemas[refName(items.$ref)];
    return !!items && (isObjectWithProps(items) || (items.anyOf ?? items.oneOf ?? []).some((b: Schema) => isObjectWithProps(b.$ref ? this.schemas[refName(b.$ref)] : b)));
  }
}

/** An inline union branch's class name: its title, else its single-valued tag, else its position. */
function branchName(b: Schema, ctx: string, i: number): string {
  if (typeof b.title === 'string') return pascal(b.title);
  for (const [k, p] of Object.entries<Schema>(b.properties ?? {})) {
    if (['event', 'type', 'kind', 'tool', 'job_type', 'operation', 'status', 'source'].includes(k) && Array.isArray(p.enum) && p.enum.length === 1)
      return `${ctx}${pascal(String(p.enum[0]))}`;
  }
  return `${ctx}Variant${i + 1}`;
}

function literal(values: unknown[]): string {
  const vs = [...new Set(values.map(pyLiteral))];
  const nonNull = vs.filter((v) => v !== 'None');
  const lit = nonNull.length ? `Literal[${nonNull.join(', ')}]` : '';
  return [lit, ...(vs.includes('None') ? ['None'] : [])].filter(Boolean).join(' | ');
}

/** The members of `Literal[...]`'s inside, as Python sources (strings may hold commas). */
function splitLiteral(inside: string): unknown[] {
  return (
    JSON.parse(
      `[${inside
        .replace(/\bNone\b/g, 'null')
        .replace(/\bTrue\b/g, 'true')
        .replace(/\bFalse\b/g, 'false')}]`,
    ) as unknown[]
  ).map((v) => v);
}
