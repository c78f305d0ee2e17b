// JSON Schema as tools hand it out (docs/mcp.md, "Tools"): one self-contained object, every $ref
// to a registered schema inlined, so that a model or an MCP client reads it without the API's
// registry of shared schemas.

export type JsonSchema = Record<string, unknown>;

/** Keywords whose value is a map of names to schemas: its keys are names, never keywords. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions']);

/**
 * `schema` with every `$ref` to a registered schema replaced by that schema (titled with its id,
 * so that a branch of a oneOf keeps its name), without `$id`s, OpenAPI-only keywords
 * (`discriminator`) or extensions (`x-...`), and without TypeBox's symbol keys.
 */
export function inlineRefs(schema: unknown, lookup: (id: string) => unknown, stack: string[] = []): unknown {
  if (Array.isArray(schema)) return schema.map((s) => inlineRefs(s, lookup, stack));
  if (!schema || typeof schema !== 'object') return schema;
  const src = schema as JsonSchema;
  if (typeof src.$ref === 'string') {
    const id = src.$ref.replace(/#$/, '');
    const { $ref: _ref, ...siblings } = src;
    const rest = inlineRefs(siblings, lookup, stack) as JsonSchema;
    if (stack.includes(id)) return { ...rest, description: `${typeof rest.description === 'string' ? rest.description : ''} (a ${id}, as above)`.trim() };
    const target = lookup(id);
    if (!target) throw new Error(`unresolved schema reference ${src.$ref}`);
    const resolved = inlineRefs(target, lookup, [...stack, id]) as JsonSchema;
    return { title: id, ...resolved, ...rest };
  }
  const out: JsonSchema = {};
  for (const k of Object.keys(src)) {
    if (k === '$id' || k === 'discriminator' || k.startsWith('x-')) continue;
    const v = src[k];
    if (SCHEMA_MAPS.has(k) && v && typeof v === 'object' && !Array.isArray(v)) {
      out[k] = Object.fromEntries(Object.entries(v as JsonSchema).map(([name, s]) => [name, inlineRefs(s, lookup, stack)]));
    } else out[k] = inlineRefs(v, lookup, stack);
  }
  return out;
}
