// Secrets never come back in a response: 422 `input` values are redacted by field name
// (anywhere in the input) and API-key-shaped strings are masked wherever they appear.

export const REDACTED = '[redacted]';

const SECRET_FIELDS = new Set([
  'password',
  'new_password',
  'current_password',
  'client_secret',
  'refresh_token',
  'access_token',
  'api_key',
  'x-api-key',
  'authorization',
  'cookie',
  'secret',
  'token',
]);

const API_KEY_RE = /crk_[A-Za-z0-9]{8}_[A-Za-z0-9]{8,}/g;

function isSecretField(name: string | number): boolean {
  return typeof name === 'string' && SECRET_FIELDS.has(name.toLowerCase());
}

/** A copy of `value` with every secret-named member replaced and API keys masked. */
function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.replace(API_KEY_RE, REDACTED);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 32) return REDACTED;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = isSecretField(k) ? REDACTED : redactValue(v, depth + 1);
  return out;
}

/**
 * The `input` of a validation issue, safe to show. The input is the value at `loc`, except for
 * `missing`, where it is the parent object (so the last segment names the absent field).
 */
export function redactIssueInput(type: string, loc: (string | number)[], input: unknown): unknown {
  const valuePath = type === 'missing' ? loc.slice(0, -1) : loc;
  if (valuePath.some(isSecretField)) return REDACTED;
  return redactValue(input);
}
