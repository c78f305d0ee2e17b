// Response serializers (fast-json-stringify), built once per distinct schema rather than once per
// route and status: a hundred routes answer the same Problem for their 4xx, and share their
// result schemas. fast-json-stringify checks anyOf/oneOf branches with Ajv validators that it
// compiles on the first answer reaching them, a task of 100-200 ms under load during which no
// other request is answered. With `eager` (crucible serve) they are compiled when the
// route is built, before the server listens (docs/reliability.md, "No request stalls the server").
import type { TSchema } from '@sinclair/typebox';
import fastJsonStringify from 'fast-json-stringify';

type Serializer = (data: unknown) => string;
type FjsSchema = Parameters<typeof fastJsonStringify>[0];

/** A Fastify serializer compiler over `shared` (the schemas routes reference by $id). */
export function sharedSerializerCompiler(shared: readonly TSchema[], eager: boolean) {
  const external: Record<string, FjsSchema> = Object.fromEntries(shared.map((s) => [s.$id!, s as unknown as FjsSchema]));
  const cache = new Map<string, Serializer>();
  return ({ schema }: { schema: unknown }): Serializer => {
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
}
