// A list shown as a table, the same way on every page (docs/console.md, "Pages"): in a region that
// scrolls sideways on a phone (focusable, so the keyboard scrolls it too), with a caption for
// screen readers, a header row, a row that says so when there is nothing to list, then the rows.
import type { ReactNode } from 'react';

/** A column's header: its text, or its text and class (`num` for figures aligned right). */
export type Column = string | { label: string; className: string };

export function ListTable({
  label,
  labelledBy,
  caption = label,
  columns,
  empty,
  className = 'list',
  scrolls = true,
  children,
}: {
  /** The region's name (and the caption's, unless `caption` is given). */
  label: string;
  /** The id of a heading that names the region instead of `label`. */
  labelledBy?: string;
  caption?: string;
  columns: Column[];
  /** Shown as the only row when truthy: "No jobs yet." */
  empty?: ReactNode;
  className?: string;
  /** False: the table alone, in a card that scrolls already. */
  scrolls?: boolean;
  children: ReactNode;
}) {
  const table = (
    <table className={className}>
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr>
          {columns.map((c) =>
            typeof c === 'string' ? (
              <th scope="col" key={c}>
                {c}
              </th>
            ) : (
              <th scope="col" key={c.label} className={c.className}>
                {c.label}
              </th>
            ),
          )}
        </tr>
      </thead>
      <tbody>
        {empty ? (
          <tr>
            <td colSpan={columns.length} className="muted">
              {empty}
            </td>
          </tr>
        ) : null}
        {children}
      </tbody>
    </table>
  );
  if (!scrolls) return table;
  return (
    <div className="table-wrap" tabIndex={0} role="region" {...(labelledBy ? { 'aria-labelledby': labelledBy } : { 'aria-label': label })}>
      {table}
    </div>
  );
}
