// Prepared statements on PostgreSQL (docs/architecture.md, "Prepared statements"). A
// parameterised statement's text seen a second time gets a name (its hash), and node-postgres
// then parses it once per connection (a named Parse, remembered by the connection) and sends
// only Bind and Execute afterwards; PostgreSQL may also reuse its plan. Parsing and planning an
// unnamed statement took as long as executing it (docs/performance/platform.md, "Workflows",
// thirteenth session). PGlite parses in-process and is left as it is.
import crypto from 'node:crypto';

/** Statement texts run prepared per process, at most (CRUCIBLE_DB_PREPARED; 0 = none). */
export const DEFAULT_PREPARED_STATEMENTS = 256;

/**
 * Which statement texts run as named (prepared) statements. At most `max` names: a text seen
 * once is only remembered (a statement built with a varying number of placeholders is seen
 * once per shape and never named unless it repeats), so the connections' prepared statements
 * stay bounded; `max` 0 turns preparing off (a pooler in transaction mode that does not
 * support prepared statements: CRUCIBLE_DB_PREPARED=0).
 */
export class StatementNames {
  /** Texts seen once, not yet named (cleared when it reaches 4 x max). */
  private readonly seen = new Set<string>();
  private readonly names = new Map<string, string>();
  /** Texts whose cached plan went stale (a migration changed a row type): run unnamed from then on. */
  private readonly unnamed = new Set<string>();

  constructor(readonly max: number) {}

  /** The name to run `text` under, or undefined to run it unnamed. */
  nameOf(text: string): string | undefined {
    const known = this.names.get(text);
    if (known !== undefined) return known;
    if (this.names.size >= this.max || this.unnamed.has(text)) return undefined;
    if (!this.seen.has(text)) {
      if (this.seen.size >= 4 * this.max) this.seen.clear();
      this.seen.add(text);
      return undefined;
    }
    this.seen.delete(text);
    const name = `crucible_${crypto.createHash('sha1').update(text).digest('hex')}`;
    this.names.set(text, name);
    return name;
  }

  /** After a stale plan: the text is never named again (each connection's old statement is left unused). */
  forget(text: string): void {
    this.names.delete(text);
    this.unnamed.add(text);
  }

  get size(): number {
    return this.names.size;
  }
}

/**
 * PostgreSQL's refusal to run a prepared statement whose result row type changed since it was
 * planned (a column added by a migration under `SELECT *`): 0A000 "cached plan must not change
 * result type". The statement runs again unnamed; a transaction runs again whole.
 */
export function isStalePlan(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  return e?.code === '0A000' && typeof e.message === 'string' && e.message.includes('cached plan must not change result type');
}
