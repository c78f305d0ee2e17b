// Named (registered) schemas of the six lookup endpoints, built from the lookups library's
// REQUEST_SCHEMAS and response schemas, so the OpenAPI document lists them as components.
import { Type, type TSchema } from '@sinclair/typebox';
import { CompoundItemSchema, CompoundsResponseSchema, ENDPOINTS, lookupResponseSchema, REQUEST_SCHEMAS, type EndpointName } from '../../lookups/index.js';

const NAMES: Record<EndpointName, string> = {
  compounds: 'Compounds',
  bioactivity: 'Bioactivity',
  targets: 'Targets',
  proteins: 'Proteins',
  structures: 'Structures',
  properties: 'Properties',
};

const withId = <T extends TSchema>(schema: T, $id: string): T => ({ ...schema, $id });

export const requestSchemaId = (e: EndpointName) => `${NAMES[e]}LookupRequest`;
export const responseSchemaId = (e: EndpointName) => `${NAMES[e]}LookupResponse`;

/** CompoundItem is its own component (the reference names it); the compounds response refers to it. */
export const CompoundItem = withId(CompoundItemSchema, 'CompoundItem');
const CompoundsLookupResponse = withId(
  Type.Object(
    { ...CompoundsResponseSchema.properties, compounds: Type.Array(Type.Ref(CompoundItem), { description: 'One item per name, in input order' }) },
    { additionalProperties: false },
  ),
  responseSchemaId('compounds'),
);

const perEndpoint = (make: (e: EndpointName) => TSchema): Record<EndpointName, TSchema> =>
  Object.fromEntries(ENDPOINTS.map((e) => [e, make(e)])) as Partial<Record<EndpointName, TSchema>> as Record<EndpointName, TSchema>;

export const LOOKUP_REQUEST_SCHEMAS = perEndpoint((e) => withId(REQUEST_SCHEMAS[e] as TSchema, requestSchemaId(e)));

export const LOOKUP_RESPONSE_SCHEMAS = perEndpoint((e) => (e === 'compounds' ? CompoundsLookupResponse : withId(lookupResponseSchema(e), responseSchemaId(e))));

/** Registered with app.addSchema + addSharedSchema (src/http/app.ts). */
export const LOOKUP_SCHEMAS: TSchema[] = [CompoundItem, ...Object.values(LOOKUP_REQUEST_SCHEMAS), ...Object.values(LOOKUP_RESPONSE_SCHEMAS)];
