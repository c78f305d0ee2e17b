// The wallet's ledger on the Account page (docs/console.md, "Account"): GET /wallet/ledger, newest
// first, 20 rows a page with "Show older" (the `before` cursor). Each row links to the job or
// workflow run it is for.
import { useEffect, useState } from 'react';
import type { components } from 'crucible-client';
import { api, ok } from '../../api/client.ts';
import { toProblem, type Problem } from '../../api/problem.ts';
import { ProblemView } from '../../components/ProblemView.tsx';
import { href } from '../../router.ts';
import { usd } from '../../lib/units.ts';
import { ListTable } from '../../components/ListTable.tsx';

type Item = components['schemas']['LedgerItem'];

const PAGE = 20;
const KIND: Record<Item['kind'], string> = { credit: 'Credit', debit: 'Debit', reserve: 'Hold', release: 'Hold released', charge: 'Charge' };
/** To the micro-dollar, the ledger's own precision: a 2-second job costs $0.0004. */
/** A move of the balance or the reserved total, to the micro-dollar. */
const MOVE = { digits: 6, move: true };

function Subject({ item }: { item: Item }) {
  const id = item.subject_id;
  if (!id) return <span className="muted">account</span>;
  if (item.subject === 'jobs') return <a href={href('jobs', id)}>job {id.slice(0, 8)}</a>;
  if (item.subject === 'workflow_runs') return <a href={href('workflows', 'runs', id)}>run {id.slice(0, 8)}</a>;
  return <span>Assistant turn {id.slice(0, 8)}</span>;
}

export function Ledger({ refresh }: { refresh: number }) {
  const [items, setItems] = useState<Item[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);

  async function load(before: string | null) {
    try {
      const page = await ok(api.GET('/api/v1/wallet/ledger', { params: { query: { limit: PAGE, ...(before ? { before } : {}) } } }));
      setItems((old) => (before ? [...old, ...page.items] : page.items));
      setNext(page.next_before);
    } catch (err) {
      setProblem(toProblem(err));
    }
  }
  useEffect(() => void load(null), [refresh]);

  return (
    <>
      <h2 className="section" id="ledger-title">
        Ledger
      </h2>
      <ProblemView problem={problem} />
      <ListTable
        label="Every move of the wallet's money, newest first"
        labelledBy="ledger-title"
        columns={['When', 'What', 'For', { label: 'Balance', className: 'num' }, { label: 'Reserved', className: 'num' }, 'Note']}
        empty={items.length === 0 && 'No money has moved yet.'}
      >
        {items.map((i) => (
          <tr key={i.entry_id}>
            <td>{new Date(i.created_at).toLocaleString()}</td>
            <td>{KIND[i.kind]}</td>
            <td>
              <Subject item={i} />
            </td>
            <td className="num mono">{usd(i.amount_usd, MOVE)}</td>
            <td className="num mono">{usd(i.reserved_delta_usd, MOVE)}</td>
            <td className="muted">{i.note ?? ''}</td>
          </tr>
        ))}
      </ListTable>
      {next && (
        <p>
          <button type="button" className="secondary" onClick={() => void load(next)}>
            Show older
          </button>
        </p>
      )}
    </>
  );
}
