// A list's query parameters as its SQL needs them (docs/api-decisions.md): `sort` (a field,
// `-field` descending, `+field` ascending) as an ORDER BY clause, and comma-separated values
// (`status=queued,running`) checked one by one. A bad value is a 422 located at query.<name>.
import { invalid } from '../errors.js';

/** The ORDER BY clause of `sort` over `columns` (field -> SQL expression); `fallback` without one. */
export function sortOrder(sort: string | undefined, columns: Readonly<Record<string, string>>, fallback: string, nulls = ''): string {
  if (!sort) return fallback;
  const desc = sort.startsWith('-');
  const field = sort.replace(/^[-+]/, '');
  if (!Object.hasOwn(columns, field)) throw invalid(['sort'], `Input should be one of ${Object.keys(columns).join(', ')}, optionally prefixed with -`, sort, 'enum');
  return `${columns[field]} ${desc ? 'DESC' : 'ASC'}${nulls}`;
}

/** The values of the comma-separated parameter `name`, each one of `allowed`; undefined without one. */
export function commaValues<T extends string>(text: string | undefined, allowed: readonly T[], name: string): T[] | undefined {
  if (!text) return undefined;
  const values = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (values.some((s) => !allowed.includes(s as T))) throw invalid([name], `Each ${name} should be one of: ${allowed.join(', ')}`, text, 'enum');
  return values as T[];
}
