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

/**
 * Serializers by the shared schemas' ids, eagerness and schema text: kept for the process, so an
 * app built again (a test file's server per database) reuses them.
 */
const built = new Map<string, Map<string, Serializer>>();

/** A Fastify serializer compiler over `shared` (the schemas routes reference by $id). */
export function sharedSerializerCompiler(shared: readonly TSchema[], eager: boolean) {
  const external: Record<string, FjsSchema> = Object.fromEntries(shared.map((s) => [s.$id!, s as unknown as FjsSchema]));
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
      f = fastJsonStringify(schema as FjsSchema, { schema: schemas, compileValidators: eager }) as Serializer;
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
