// A form generated from a JSON Schema object (a job type's payload in /openapi.json; docs/console.md,
// "Jobs"). Each property becomes a field: a list of strings a textarea (one a line), a list of
// numbers a text input (separated by spaces or commas), an enum (or an anyOf of constants, nested
// or nullable) a select, numbers and strings inputs, a boolean a checkbox, an object with
// properties its own group of fields, anything else JSON. Labels are the field's words and unit
// (lib/units.ts). Empty fields are left out of the body, so the server's defaults apply. A 422's
// issues are shown at the field their loc names (`base` + the property).
import { issuesAt, type Problem } from '../api/problem.ts';
import { fieldLabel } from '../lib/units.ts';
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
type Kind = 'lines' | 'numbers' | 'select' | 'number' | 'integer' | 'boolean' | 'text' | 'object' | 'json';

/** The constants an enum or an anyOf of constants allows, however nested (null left out); null when it is not one. */
export function choices(s: Schema): unknown[] | null {
  if (s.enum) return s.enum.filter((v) => v !== null);
  if (s.const !== undefined) return s.const === null ? [] : [s.const];
  const branches = s.anyOf ?? s.oneOf;
  if (!branches) return null;
  const out: unknown[] = [];
  for (const b of branches) {
    if (b.type === 'null') continue;
    const inner = choices(b);
    if (!inner) return null;
    out.push(...inner);
  }
  return out.length ? out : null;
}

/** A nullable field (`anyOf: [{type: number, ...}, {type: null}]`) as its one other branch, keeping the field's description and default. */
function unwrap(s: Schema): Schema {
  const branches = s.anyOf ?? s.oneOf;
  if (!branches || choices(s)) return s;
  const real = branches.filter((b) => b.type !== 'null');
  if (real.length !== 1) return s;
  return { ...real[0], description: s.description ?? real[0]!.description, default: s.default !== undefined ? s.default : real[0]!.default };
}

function kindOf(schema: Schema): Kind {
  if (choices(schema)) return 'select';
  const s = unwrap(schema);
  const t = Array.isArray(s.type) ? s.type.find((x) => x !== 'null') : s.type;
  if (t === 'array') {
    const item = s.items?.type;
    return item === 'string' ? 'lines' : item === 'number' || item === 'integer' ? 'numbers' : 'json';
  }
  if (t === 'integer' || t === 'number' || t === 'boolean') return t;
  if (t === 'string') return 'text';
  if (t === 'object' && s.properties) return 'object';
  return 'json';
}

export const fieldId = (path: (string | number)[]) => `f-${path.join('-')}`;

/** The values of an object field's own fields (`box.center` -> `center`). */
function within(values: Values, name: string): Values {
  const prefix = `${name}.`;
  return Object.fromEntries(Object.entries(values).flatMap(([k, v]) => (k.startsWith(prefix) ? [[k.slice(prefix.length), v]] : [])));
}

/** What a select's empty choice says: the default, or what null means ("null: gas phase" in the description). */
function emptyChoice(s: Schema): string {
  const d = s.default;
  if (typeof d === 'string' || typeof d === 'number' || typeof d === 'boolean') return `default ${String(d)}`;
  const meaning = /\bnull: ([^;.]+)/.exec(s.description ?? '')?.[1];
  return meaning ? `${meaning} (default)` : '(none)';
}

/** The body part the values make; errors keyed by field name (`box.center` inside an object) when a field does not parse. */
export function valuesToObject(schema: Schema, values: Values): { value: Record<string, unknown>; errors: Record<string, string> } {
  const value: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const [name, s] of Object.entries(schema.properties ?? {})) {
    const kind = kindOf(s);
    if (kind === 'object') {
      const inner = valuesToObject(unwrap(s), within(values, name));
      if (Object.keys(inner.value).length) value[name] = inner.value;
      for (const [k, e] of Object.entries(inner.errors)) errors[`${name}.${k}`] = e;
      continue;
    }
    const v = values[name];
    if (v === undefined || v === '') continue;
    if (kind === 'boolean') {
      if (v !== (s.default ?? false)) value[name] = v;
    } else if (typeof v !== 'string') continue;
    else if (kind === 'lines') {
      const lines = v
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean);
      if (lines.length) value[name] = lines;
    } else if (kind === 'numbers') {
      const tokens = v.split(/[\s,]+/).filter(Boolean);
      const nums = tokens.map(Number);
      if (nums.some((n) => !Number.isFinite(n))) errors[name] = 'Numbers separated by spaces or commas';
      else if (nums.length) value[name] = nums;
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

/** The messages of a 422's issues whose loc is exactly `path` (an object's own; its fields show theirs). */
function issuesExactly(problem: Problem | null, path: (string | number)[]): string[] {
  const issues = (problem?.status === 422 ? problem.errors : undefined) ?? [];
  return issues.filter((i) => i.loc.length === path.length && path.every((p, n) => i.loc[n] === p)).map((i) => i.msg);
}

export function SchemaForm({
  schema,
  values,
  onChange,
  base,
  problem,
  localErrors = {},
  suggestions = {},
  nested = false,
}: {
  schema: Schema;
  values: Values;
  onChange: (v: Values) => void;
  base: (string | number)[];
  problem: Problem | null;
  localErrors?: Record<string, string>;
  /** Known values of a string field, offered as a select (e.g. the library's molecule sets). */
  suggestions?: Record<string, { value: string; label: string }[]>;
  /** The fields of an optional object: none is required on its own. */
  nested?: boolean;
}) {
  const required = new Set(nested ? [] : (schema.required ?? []));
  return (
    <div className="schema-form">
      {Object.entries(schema.properties ?? {}).map(([name, field]) => {
        const path = [...base, name];
        const id = fieldId(path);
        const kind = kindOf(field);
        const s = kind === 'select' ? field : unwrap(field);
        const label = fieldLabel(name);
        const hintId = `${id}-hint`;
        const errId = `${id}-error`;
        const hint = s.description && (
          <p className="muted small hint" id={hintId}>
            {s.description}
          </p>
        );
        if (kind === 'object') {
          // Its own fields in a group; each shows its own issues, the group those about it as a whole.
          const inner = within(values, name);
          const own = issuesExactly(problem, path);
          return (
            <fieldset key={name} className="field subform" aria-describedby={[s.description ? hintId : '', own.length ? errId : ''].filter(Boolean).join(' ') || undefined}>
              <legend>
                {label}
                {required.has(name) && <span aria-hidden="true"> *</span>}
              </legend>
              {hint}
              <FieldError id={errId} messages={own} />
              <SchemaForm
                schema={s}
                values={inner}
                onChange={(v) => {
                  const rest = Object.fromEntries(Object.entries(values).filter(([k]) => !k.startsWith(`${name}.`)));
                  onChange({ ...rest, ...Object.fromEntries(Object.entries(v).map(([k, x]) => [`${name}.${k}`, x])) });
                }}
                base={path}
                problem={problem}
                localErrors={within(localErrors, name) as Record<string, string>}
                nested
              />
            </fieldset>
          );
        }
        const messages = [...issuesAt(problem, path), ...(localErrors[name] ? [localErrors[name]] : [])];
        const aria = {
          id,
          'aria-invalid': messages.length > 0 || undefined,
          'aria-describedby': [s.description ? hintId : '', messages.length ? errId : ''].filter(Boolean).join(' ') || undefined,
          required: required.has(name) || undefined,
        };
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
              <option value="">{emptyChoice(s)}</option>
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
        else if (kind === 'numbers')
          input = (
            <input
              {...aria}
              type="text"
              inputMode="decimal"
              className="mono"
              spellCheck={false}
              placeholder={Array.isArray(d) && d.length ? `default ${d.join(' ')}` : 'numbers separated by spaces'}
              value={typeof v === 'string' ? v : ''}
              onChange={(e) => set(e.target.value)}
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
              {label}
              {required.has(name) && <span aria-hidden="true"> *</span>}
            </label>
            {input}
            {hint}
            <FieldError id={errId} messages={messages} />
          </div>
        );
      })}
    </div>
  );
}
