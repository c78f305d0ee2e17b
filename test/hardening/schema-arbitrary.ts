// Valid values for a JSON Schema (the OpenAPI 3.1 dialect Crucible's document uses), as
// fast-check arbitraries: the fuzz test builds its "valid" requests from these and mutates them.
// Only what the document uses is supported: $ref, const, enum, anyOf/oneOf, type lists,
// string formats (uuid, date-time, binary), lengths, patterns, numeric bounds, arrays and objects.
// Sizes are kept small (arrays of at most 4 items, strings of at most 24 characters unless the
// schema needs more): the point is well-formed input that reaches the handlers, not volume.
import fc from 'fast-check';

export type JsonSchema = Record<string, any>;

export interface SchemaHints {
  /** A property or parameter by name: an arbitrary mixed in with (or replacing) the schema's own. */
  property?(name: string, schema: JsonSchema, build: (s: JsonSchema) => fc.Arbitrary<unknown>): { arb: fc.Arbitrary<unknown>; only?: boolean } | undefined;
  /** An object schema: an arbitrary used instead of the generic one (cross-field rules). */
  object?(schema: JsonSchema, build: (s: JsonSchema, name?: string) => fc.Arbitrary<unknown>): fc.Arbitrary<unknown> | undefined;
}

export interface SchemaContext {
  /** The schema a `$ref` names (`#/components/schemas/X`). */
  resolve(ref: string): JsonSchema;
  hints?: SchemaHints;
}

const MAX_ITEMS = 4;
const MAX_CHARS = 24;
const MAX_DEPTH = 12;

/** Strings of mostly printable ASCII, some of any script (never control characters). */
function text(minLength: number, maxLength: number): fc.Arbitrary<string> {
  const unit = fc.oneof(
    { arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }), weight: 4 },
    { arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }), weight: 1 },
  );
  return fc.string({ unit, minLength, maxLength });
}

function numberBounds(schema: JsonSchema, integer: boolean): { min: number; max: number } {
  let min = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + (integer ? 1 : 1e-9) : -1000;
  let max = typeof schema.maximum === 'number' ? schema.maximum : typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum - (integer ? 1 : 1e-9) : min + 2000;
  if (integer) {
    min = Math.max(Math.ceil(min), Number.MIN_SAFE_INTEGER);
    max = Math.min(Math.floor(max), Number.MAX_SAFE_INTEGER);
  }
  return { min, max: Math.max(min, max) };
}

function stringArb(schema: JsonSchema): fc.Arbitrary<unknown> {
  const minLength: number = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? MAX_CHARS, Math.max(minLength, MAX_CHARS));
  switch (schema.format) {
    case 'uuid':
      return fc.uuid();
    case 'date-time':
      return fc
        .oneof(
          fc.integer({ min: 120_000, max: 5 * 365 * 86_400_000 }).map((ms) => new Date(Date.now() + ms)),
          fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true }),
        )
        .map((d) => d.toISOString());
    case 'binary':
      return fc.uint8Array({ maxLength: 256 }).map((a) => Buffer.from(a));
  }
  if (typeof schema.pattern === 'string') {
    const re = new RegExp(schema.pattern, 'u');
    const fallback = 'x'.repeat(Math.max(1, minLength));
    return fc.string({ unit: 'grapheme-ascii', minLength, maxLength }).map((s) => (re.test(s) ? s : fallback));
  }
  return text(minLength, maxLength);
}

/** An arbitrary of values valid against `schema`; `name` is the property or parameter it fills (for hints). */
export function arbitraryFor(schema: JsonSchema, ctx: SchemaContext, name?: string, depth = 0): fc.Arbitrary<unknown> {
  if (depth > MAX_DEPTH) return fc.constant(null);
  const build = (s: JsonSchema, n?: string) => arbitraryFor(s, ctx, n, depth + 1);
  if (typeof schema.$ref === 'string') return arbitraryFor(ctx.resolve(schema.$ref), ctx, name, depth + 1);
  const own = schemaArb(schema, ctx, depth, name);
  const hinted = name !== undefined ? ctx.hints?.property?.(name, schema, build) : undefined;
  if (!hinted) return own;
  return hinted.only ? hinted.arb : fc.oneof({ arbitrary: hinted.arb, weight: 3 }, { arbitrary: own, weight: 1 });
}

function schemaArb(schema: JsonSchema, ctx: SchemaContext, depth: number, name?: string): fc.Arbitrary<unknown> {
  const build = (s: JsonSchema, n?: string) => arbitraryFor(s, ctx, n, depth + 1);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length) return fc.constantFrom(...(schema.enum as unknown[]));
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(alternatives) && alternatives.length) return fc.oneof(...alternatives.map((s) => build(s)));
  if (Array.isArray(schema.allOf) && schema.allOf.length) return build(Object.assign({}, ...(schema.allOf as JsonSchema[])));
  if (Array.isArray(schema.type)) {
    const types = schema.type as string[];
    return fc.oneof(...types.map((t) => schemaArb({ ...schema, type: t }, ctx, depth, name)));
  }
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const { min, max } = numberBounds(schema, true);
      return fc.integer({ min, max });
    }
    case 'number': {
      const { min, max } = numberBounds(schema, false);
      const doubles = fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
      // A range with no integer in it (0.05..0.4) takes doubles only.
      if (Math.ceil(min) > Math.floor(max)) return doubles;
      return fc.oneof(
        fc.integer({ min: Math.ceil(min), max: Math.floor(max) }).filter((n) => n >= min && n <= max),
        doubles,
      );
    }
    case 'string':
      return stringArb(schema);
    case 'array': {
      const items = build((schema.items as JsonSchema | undefined) ?? {}, name !== undefined ? `${name}[]` : undefined);
      const minLength: number = schema.minItems ?? 0;
      const maxLength = Math.min(schema.maxItems ?? MAX_ITEMS, Math.max(minLength, MAX_ITEMS));
      return schema.uniqueItems ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) }) : fc.array(items, { minLength, maxLength });
    }
    case 'object':
    case undefined: {
      if (schema.type === undefined && !schema.properties) return fc.jsonValue({ maxDepth: 2 });
      const custom = ctx.hints?.object?.(schema, build);
      if (custom) return custom;
      const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set<string>((schema.required as string[] | undefined) ?? []);
      const model = Object.fromEntries(Object.entries(props).map(([k, s]) => [k, build(s, k)]));
      return fc.record(model, { requiredKeys: Object.keys(props).filter((k) => required.has(k)) });
    }
  }
  return fc.jsonValue({ maxDepth: 2 });
}
