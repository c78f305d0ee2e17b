import { Type } from '@sinclair/typebox';
import { Nullable } from '../../api/schemas.js';

// Printable: no control, format, private-use or unassigned characters, and not only spaces.
const NAME_PATTERN = '^[^\\p{C}]*[^\\p{C}\\s][^\\p{C}]*$';
export const MAX_SPEND_CEILING_USD = 1_000_000;

const ScopeSchema = Type.Union([Type.Literal('read'), Type.Literal('write')]);

const keyFields = {
  id: Type.String({ format: 'uuid', description: 'Credential row UUID' }),
  name: Type.String({ description: 'Display name, unique per user, 1 to 64 characters' }),
  key_prefix: Nullable(Type.String(), { description: 'Non-secret prefix (crk_ + 8 characters) for display and support' }),
  created_at: Type.String({ format: 'date-time' }),
  expires_at: Nullable(Type.String({ format: 'date-time' }), { description: 'The key stops authenticating after this instant' }),
  last_used_at: Nullable(Type.String({ format: 'date-time' }), { description: 'Last successful authentication (may lag up to 60 s)' }),
  revoked_at: Nullable(Type.String({ format: 'date-time' }), { description: 'Always null: revoking deletes the key' }),
  rotated_at: Nullable(Type.String({ format: 'date-time' }), { description: 'Last rotation' }),
  scopes: Type.Array(ScopeSchema, { description: 'Enforced scopes, subset of read, write' }),
  allow_structure_search: Type.Boolean({ description: 'Owner opt-in to send structures to external lookups' }),
  spend_ceiling_usd: Nullable(Type.Number(), { description: 'Most that work started with this key may reserve per calendar month (UTC); null = wallet only' }),
  spend_accrued_usd: Nullable(Type.Number(), { description: 'USD reserved with this key in the current calendar month (UTC)' }),
};

export const ApiKeyListItem = Type.Object(keyFields, { $id: 'ApiKeyListItem', additionalProperties: false });
export const ApiKeyCreatedResponse = Type.Object(
  { ...keyFields, api_key: Type.String({ description: 'The secret: returned only here, at creation or rotation' }) },
  { $id: 'ApiKeyCreatedResponse', additionalProperties: false },
);
export const ApiKeyListResponse = Type.Object(
  {
    count: Type.Integer({ description: 'Current number of keys' }),
    keys: Type.Array(Type.Ref(ApiKeyListItem), { description: 'Owned keys, newest first, no secrets' }),
    limit: Type.Integer({ description: "Maximum keys allowed for the user's tier" }),
  },
  { $id: 'ApiKeyListResponse', additionalProperties: false },
);

const NameSchema = Type.String({ minLength: 1, maxLength: 64, pattern: NAME_PATTERN, description: '1 to 64 printable characters, unique per user' });

export const CreateApiKeyRequest = Type.Object(
  {
    name: NameSchema,
    scopes: Type.Optional(Nullable(Type.Array(ScopeSchema, { minItems: 1, maxItems: 2, uniqueItems: true }), { description: 'Default both' })),
    expires_at: Type.Optional(Nullable(Type.String({ format: 'date-time' }), { description: 'At least one minute in the future' })),
    spend_ceiling_usd: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: MAX_SPEND_CEILING_USD }))),
    allow_structure_search: Type.Optional(Type.Boolean({ default: false })),
  },
  { $id: 'CreateApiKeyRequest', additionalProperties: false },
);

export const RenameApiKeyRequest = Type.Object(
  {
    name: Type.Optional(Nullable(NameSchema)),
    allow_structure_search: Type.Optional(Nullable(Type.Boolean())),
  },
  { $id: 'RenameApiKeyRequest', additionalProperties: false },
);

export const KeyIdParams = Type.Object({ key_id: Type.String({ format: 'uuid' }) });
