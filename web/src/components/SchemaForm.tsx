// A form generated from a JSON Schema object (a job type's payload in /openapi.json; docs/console.md,
// "Jobs"). Each property becomes a field: a list of strings a textarea (one a line), an enum (or an
// anyOf of constants) a select, numbers and strings inputs, a boolean a checkbox, anything else JSON.
// Empty fields are left out of the body, so the server's defaults apply. A 422's issues are shown
// at the field their loc names (`base` + the property).
import { issuesAt, type Problem } from '../api/problem.ts';
import { FieldError } from './ProblemView.tsx';

export interface Schema {
  type?: string | string[];
  description?: string;
  title?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  $ref?: string;
}

export type Values = Record<string, string | boolean>;
type Kind = 'lines' | 'select' | 'number' | 'integer' | 'boolean' | 'text' | 'json';

/** The constants an enum or an anyOf of constants allows (null left out). */
function choices(s: Schema): unknown[] | null {
  if (s.enum) return s.enum.filter((v) => v !== null);
  const branches = s.anyOf ?? s.oneOf;
  if (!branches) return null;
  const out: unknown[] = [];
  for (const b of branches) {
    if (b.const !== undefined) out.push(b.const);
    else if (b.enum) out.push(...b.enum);
    else if (b.type !== 'null') return null;
  }
  return out.filter((v) => v !== null);
}

function kindOf(s: Schema): Kind {
  if (choices(s)) return 'select';
  const t = Array.isArray(s.type) ? s.type.find((x) => x !== 'null') : s.type;
  if (t === 'array') return s.items?.type === 'string' ? 'lines' : 'json';
  if (t === 'integer' || t === 'number' || t === 'boolean') return t;
  if (t === 'string') return 'text';
  return 'json';
}

const label = (name: string) => name.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
export const fieldId = (path: (string | number)[]) => `f-${path.join('-')}`;

/** The body part the values make; throws a message keyed by field name when a JSON field does not parse. */
export function valuesToObject(schema: Schema, values: Values): { value: Record<string, unknown>; errors: Record<string, string> } {
  const value: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const [name, s] of Object.entries(schema.properties ?? {})) {
    const v = values[name];
    if (v === undefined || v === '') continue;
    const kind = kindOf(s);
    if (kind === 'boolean') {
      if (v !== (s.default ?? false)) value[name] = v;
    } else if (typeof v !== 'string') continue;
    else if (kind === 'lines') {
      const lines = v
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean);
      if (lines.length) value[name] = lines;
    } else if (kind === 'number' || kind === 'integer') value[name] = Number(v);
    else if (kind === 'select') value[name] = choices(s)!.find((c) => String(c) === v) ?? v;
    else if (kind === 'json') {
      try {
        value[name] = JSON.parse(v);
      } catch {
        errors[name] = 'Not valid JSON';
      }
    } else value[name] = v;
  }
  return { value, errors };
}

export function SchemaForm({
  schema,
  values,
  onChange,
  base,
  problem,
  localErrors = {},
  suggestions = {},
}: {
  schema: Schema;
  values: Values;
  onChange: (v: Values) => void;
  base: (string | number)[];
  problem: Problem | null;
  localErrors?: Record<string, string>;
  /** Known values of a string field, offered as a select (e.g. the library's molecule sets). */
  suggestions?: Record<string, { value: string; label: string }[]>;
}) {
  const required = new Set(schema.required ?? []);
  return (
    <div className="schema-form">
      {Object.entries(schema.properties ?? {}).map(([name, s]) => {
        const path = [...base, name];
        const id = fieldId(path);
        const messages = [...issuesAt(problem, path), ...(localErrors[name] ? [localErrors[name]] : [])];
        const errId = `${id}-error`;
        const hintId = `${id}-hint`;
        const aria = {
          id,
          'aria-invalid': messages.length > 0 || undefined,
          'aria-describedby': [s.description ? hintId : '', messages.length ? errId : ''].filter(Boolean).join(' ') || undefined,
          required: required.has(name) || undefined,
        };
        const kind = kindOf(s);
        const v = values[name];
        const set = (x: string | boolean) => onChange({ ...values, [name]: x });
        const d = s.default;
        const placeholder = typeof d === 'string' || typeof d === 'number' || typeof d === 'boolean' ? `default ${String(d)}` : undefined;
        let input;
        const known = kind === 'text' ? suggestions[name] : undefined;
        if (known?.length)
          input = (
            <select {...aria} value={typeof v === 'string' ? v : ''} onChange={(e) => set(e.target.value)}>
              <option value="">(none)</option>
              {known.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          );
        else if (kind === 'boolean') input = <input type="checkbox" {...aria} checked={typeof v === 'boolean' ? v : s.default === true} onChange={(e) => set(e.target.checked)} />;
        else if (kind === 'select')
          input = (
            <select {...aria} value={typeof v === 'string' ? v : ''} onChange={(e) => set(e.target.value)}>
              <option value="">{placeholder ?? '(none)'}</option>
              {choices(s)!.map((c) => (
                <option key={String(c)} value={String(c)}>
                  {String(c)}
                </option>
              ))}
            </select>
          );
        else if (kind === 'lines' || kind === 'json')
          input = (
            <textarea
              {...aria}
              rows={kind === 'lines' ? 5 : 3}
              spellCheck={false}
              className="mono"
              value={typeof v === 'string' ? v : ''}
              onChange={(e) => set(e.target.value)}
              placeholder={kind === 'lines' ? 'one a line' : 'JSON'}
            />
          );
        else
          input = (
            <input
              {...aria}
              type={kind === 'text' ? 'text' : 'number'}
              step={kind === 'integer' ? 1 : 'any'}
              min={s.minimum}
              max={s.maximum}
              placeholder={placeholder}
              value={typeof v === 'string' ? v : ''}
              onChange={(e) => set(e.target.value)}
            />
          );
        return (
          <div key={name} className={kind === 'boolean' ? 'field check' : 'field'}>
            <label htmlFor={id}>
              {label(name)}
              {required.has(name) && <span aria-hidden="true"> *</span>}
            </label>
            {input}
            {s.description && (
              <p className="muted small hint" id={hintId}>
                {s.description}
              </p>
            )}
            <FieldError id={errId} messages={messages} />
          </div>
        );
      })}
    </div>
  );
}
