// Response serializers (fast-json-stringify), built once per distinct schema rather than once per
// route and status: a hundred routes answer the same Problem for their 4xx, and share their
// result schemas. fast-json-stringify checks anyOf/oneOf branches with Ajv validators that it
// compiles on the first answer reaching them, a task of 100-200 ms under load during which no
// other request is answered. With `eager` (crucible serve) they are compiled when the
// route is built, before the server listens (docs/reliability.md, "No request stalls the server");
// otherwise each is built on its first answer, so a test file's app builds only those it uses.
import type { TSchema } from '@sinclair/typebox';
import fastJsonStringify from 'fast-json-stringify';

type Serializer = (data: unknown) => string;
type FjsSchema = Parameters<typeof fastJsonStringify>[0];

/** Keywords of a primitive schema that do not change how a valid value is written (no `format`: a date-time writes Dates). */
const NEUTRAL = new Set([
  'type',
  'description',
  'title',
  'const',
  'enum',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'examples',
  'default',
]);
const PRIMITIVE = new Set(['string', 'integer', 'number', 'boolean']);

/** The one primitive type a schema (or an anyOf of such schemas: a union of literals) admits, or null. */
function primitiveType(s: unknown): string | null {
  if (!s || typeof s !== 'object' || Array.isArray(s)) return null;
  const o = s as Record<string, unknown>;
  if (Array.isArray(o.anyOf) && o.anyOf.length > 0 && Object.keys(o).every((k) => k === 'anyOf' || k === 'description' || k === 'title')) {
    const types = o.anyOf.map(primitiveType);
    return types.every((t) => t !== null && t === types[0]) ? types[0]! : null;
  }
  return typeof o.type === 'string' && PRIMITIVE.has(o.type) && Object.keys(o).every((k) => NEUTRAL.has(k)) ? o.type : null;
}

/**
 * The schema as fast-json-stringify should see it: a nullable primitive (`anyOf: [T, null]`, our
 * Nullable of a string, number, integer, boolean or a union of literals of one type) becomes
 * `type: [T, 'null']`. Both write a valid value the same bytes, but fast-json-stringify checks
 * each anyOf branch with an Ajv validator on every value, and a type list with typeof: for the
 * items of a utility's result that was three quarters of the response's serialization. A copy:
 * the OpenAPI document keeps the schemas as declared.
 */
export function serializationSchema<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(serializationSchema) as T;
  if (!schema || typeof schema !== 'object') return schema;
  const o = schema as Record<string, unknown>;
  if (Array.isArray(o.anyOf) && o.anyOf.length === 2) {
    const isNull = (x: unknown) => !!x && typeof x === 'object' && (x as { type?: unknown }).type === 'null' && Object.keys(x).every((k) => k === 'type' || k === 'description');
    const [a, b] = o.anyOf as unknown[];
    const other = isNull(b) ? a : isNull(a) ? b : undefined;
    const type = other === undefined ? null : primitiveType(other);
    if (type !== null) {
      const { anyOf: _anyOf, ...rest } = o;
      return { ...rest, type: [type, 'null'] } as T;
    }
  }
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, serializationSchema(v)])) as T;
}

/**
 * Serializers by the shared schemas' ids, eagerness and schema text: kept for the process, so an
 * app built again (a test file's server per database) reuses them.
 */
const built = new Map<string, Map<string, Serializer>>();

/** A Fastify serializer compiler over `shared` (the schemas routes reference by $id). */
export function sharedSerializerCompiler(shared: readonly TSchema[], eager: boolean) {
  const external: Record<string, FjsSchema> = Object.fromEntries(shared.map((s) => [s.$id!, serializationSchema(s) as unknown as FjsSchema]));
  const setKey = `${eager}:${shared.map((s) => s.$id).join(',')}`;
  let cache = built.get(setKey);
  if (!cache) built.set(setKey, (cache = new Map<string, Serializer>()));
  const build = (schema: unknown): Serializer => {
    const key = JSON.stringify(schema);
    let f = cache.get(key);
    if (!f) {
      const own = (schema as { $id?: string }).$id;
      // A schema registered under its own $id is not also given as an external one (as Fastify's compiler does).
      const schemas = own && own in external ? Object.fromEntries(Object.entries(external).filter(([id]) => id !== own)) : external;
      f = fastJsonStringify(serializationSchema(schema) as FjsSchema, { schema: schemas, compileValidators: eager }) as Serializer;
      cache.set(key, f);
    }
    return f;
  };
  return ({ schema }: { schema: unknown }): Serializer => {
    if (eager) return build(schema);
    // Not eager (an app built in a test file): built on the route's first answer with this status.
    let f: Serializer | null = null;
    return (data) => (f ??= build(schema))(data);
  };
}
