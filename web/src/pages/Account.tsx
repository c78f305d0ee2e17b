// Account (docs/console.md): the wallet (GET /wallet) and its ledger (GET /wallet/ledger), this
// month's usage against the tier's allowance and quota and its paid work (GET /usage), and API
// keys (GET/POST /auth/api-keys, rename, rotate, revoke, an expiry): the secret is shown once,
// when a key is created or rotated, and never again.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { components } from 'crucible-client';
import { api, ok } from '../api/client.ts';
import { issuesAt, toProblem, type Problem } from '../api/problem.ts';
import { FieldError, ProblemView } from '../components/ProblemView.tsx';
import { Ledger } from './account/Ledger.tsx';
import { bytes, usd } from '../lib/units.ts';
import { ListTable } from '../components/ListTable.tsx';

type Key = components['schemas']['ApiKeyListItem'];
type Wallet = components['schemas']['WalletResponse'];
type Usage = components['schemas']['UsageResponse'];

/** An API key's spend and ceiling, to the cent. */
const CENTS = { digits: 2 };
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '–');

export default function Account() {
  const [wallet, setWallet] = useState<Wallet | null>(null);
  const [usage, setUsage] = useState<Usage | null>(null);
  const [keys, setKeys] = useState<Key[]>([]);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [secret, setSecret] = useState<{ name: string; value: string } | null>(null);
  const [loads, setLoads] = useState(0);

  const load = useCallback(async () => {
    try {
      const [w, u, k] = await Promise.all([ok(api.GET('/api/v1/wallet')), ok(api.GET('/api/v1/usage')), ok(api.GET('/api/v1/auth/api-keys'))]);
      setWallet(w);
      setUsage(u);
      setKeys(k.keys);
      setLoads((n) => n + 1);
    } catch (err) {
      setProblem(toProblem(err));
    }
  }, []);
  useEffect(() => void load(), [load]);

  async function act(fn: () => Promise<void>) {
    setProblem(null);
    try {
      await fn();
      await load();
    } catch (err) {
      setProblem(toProblem(err));
    }
  }

  return (
    <section aria-labelledby="account-title">
      <h1 id="account-title">Account</h1>
      <ProblemView problem={problem} />
      <div className="cards">
        <article className="card" aria-labelledby="wallet-title">
          <h2 id="wallet-title">Wallet</h2>
          <table className="props">
            <tbody>
              <tr>
                <th scope="row">Balance</th>
                <td>{usd(wallet?.balance_usd)}</td>
              </tr>
              <tr>
                <th scope="row">Reserved by running jobs</th>
                <td>{usd(wallet?.reserved_usd)}</td>
              </tr>
              <tr>
                <th scope="row">Available</th>
                <td>
                  <strong>{usd(wallet?.available_usd)}</strong>
                </td>
              </tr>
            </tbody>
          </table>
        </article>
        <article className="card" aria-labelledby="usage-title">
          <h2 id="usage-title">This month</h2>
          {usage && (
            <table className="props">
              <tbody>
                <tr>
                  <th scope="row">Tier</th>
                  <td>{usage.tier_name}</td>
                </tr>
                <tr>
                  <th scope="row">Utility and inference calls</th>
                  <td>
                    {usage.calls.total.toLocaleString()} of {usage.calls.allowance == null ? 'unlimited' : usage.calls.allowance.toLocaleString()}
                  </td>
                </tr>
                <tr>
                  <th scope="row">Storage</th>
                  <td>
                    {bytes(usage.storage.used_bytes)} of {bytes(usage.storage.quota_bytes)}
                  </td>
                </tr>
                <tr>
                  <th scope="row">Paid work</th>
                  <td>
                    {usage.jobs.count} jobs ({usd(usage.jobs.charged_usd)}), {usage.workflow_runs.count} workflow runs ({usd(usage.workflow_runs.charged_usd)}),{' '}
                    {usage.assistant_turns.count} Assistant turns ({usd(usage.assistant_turns.charged_usd)})
                  </td>
                </tr>
                <tr>
                  <th scope="row">Resets</th>
                  <td>{when(usage.period.resets_at)}</td>
                </tr>
              </tbody>
            </table>
          )}
        </article>
      </div>
      <Ledger refresh={loads} />

      <h2 className="section">API keys</h2>
      {secret && (
        <div className="secret" role="status">
          <p>
            The secret of <strong>{secret.name}</strong>. Copy it now: it is not shown again.
          </p>
          <code className="mono wrap">{secret.value}</code>
          <p>
            <button type="button" className="secondary" onClick={() => setSecret(null)}>
              I have copied it
            </button>
          </p>
        </div>
      )}
      <NewKey
        onCreated={(name, value) => {
          setSecret({ name, value });
          void load();
        }}
      />
      <ListTable
        label="API keys"
        columns={['Name', 'Prefix', 'Scopes', 'Spend this month / ceiling', 'Last used', 'Expires', 'Actions']}
        empty={keys.length === 0 && 'No API keys yet.'}
      >
        {keys.map((k) => (
          <tr key={k.id}>
            <td>{k.name}</td>
            <td className="mono">{k.key_prefix}</td>
            <td>
              {k.scopes.join(', ')}
              {k.allow_structure_search ? ', structure search' : ''}
            </td>
            <td>
              {usd(k.spend_accrued_usd, CENTS)} / {k.spend_ceiling_usd == null ? 'none' : usd(k.spend_ceiling_usd, CENTS)}
            </td>
            <td>{when(k.last_used_at)}</td>
            <td>{k.expires_at ? when(k.expires_at) : 'never'}</td>
            <td className="actions">
              <button
                type="button"
                className="secondary"
                aria-label={`Rename ${k.name}`}
                onClick={() => {
                  const name = window.prompt(`A new name for ${k.name}`, k.name);
                  if (name !== null && name !== k.name)
                    void act(async () => void (await ok(api.PATCH('/api/v1/auth/api-keys/{key_id}', { params: { path: { key_id: k.id } }, body: { name } }))));
                }}
              >
                Rename
              </button>
              <button
                type="button"
                className="secondary"
                aria-label={`Rotate ${k.name}`}
                onClick={() =>
                  void act(async () => {
                    const r = await ok(api.POST('/api/v1/auth/api-keys/{key_id}/rotate', { params: { path: { key_id: k.id } } }));
                    setSecret({ name: r.name, value: r.api_key });
                  })
                }
              >
                Rotate
              </button>
              <button
                type="button"
                className="danger"
                aria-label={`Revoke ${k.name}`}
                onClick={() => {
                  if (window.confirm(`Revoke ${k.name}? Programs using it stop working at once.`))
                    void act(async () => void (await ok(api.DELETE('/api/v1/auth/api-keys/{key_id}', { params: { path: { key_id: k.id } } }))));
                }}
              >
                Revoke
              </button>
            </td>
          </tr>
        ))}
      </ListTable>
    </section>
  );
}

function NewKey({ onCreated }: { onCreated: (name: string, secret: string) => void }) {
  const [name, setName] = useState('');
  const [write, setWrite] = useState(true);
  const [structure, setStructure] = useState(false);
  const [ceiling, setCeiling] = useState('');
  const [days, setDays] = useState('');
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      const r = await ok(
        api.POST('/api/v1/auth/api-keys', {
          body: {
            name,
            scopes: write ? ['read', 'write'] : ['read'],
            allow_structure_search: structure,
            // Sent as typed: the server says what is wrong with it (a 422 at this field).
            spend_ceiling_usd: ceiling.trim() === '' ? null : Number.isNaN(Number(ceiling)) ? (ceiling as unknown as number) : Number(ceiling),
            expires_at: days ? new Date(Date.now() + Number(days) * 86_400_000).toISOString() : null,
          },
        }),
      );
      setName('');
      setCeiling('');
      setDays('');
      onCreated(r.name, r.api_key);
    } catch (err) {
      setProblem(toProblem(err));
    } finally {
      setBusy(false);
    }
  }

  const nameErrors = issuesAt(problem, ['body', 'name']);
  const ceilingErrors = issuesAt(problem, ['body', 'spend_ceiling_usd']);
  return (
    <form className="card keyform" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="newkey-title">
      <h3 id="newkey-title">New API key</h3>
      <div className="grid2">
        <div>
          <label htmlFor="key-name">Name</label>
          <input
            id="key-name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            aria-invalid={nameErrors.length > 0}
            aria-describedby={nameErrors.length ? 'key-name-error' : undefined}
          />
          <FieldError id="key-name-error" messages={nameErrors} />
        </div>
        <div>
          <label htmlFor="key-ceiling">Monthly spend ceiling (USD, empty for none)</label>
          <input
            id="key-ceiling"
            inputMode="decimal"
            value={ceiling}
            onChange={(e) => setCeiling(e.target.value)}
            aria-invalid={ceilingErrors.length > 0}
            aria-describedby={ceilingErrors.length ? 'key-ceiling-error' : undefined}
          />
          <FieldError id="key-ceiling-error" messages={ceilingErrors} />
        </div>
        <div>
          <label htmlFor="key-expires">Expires</label>
          <select id="key-expires" value={days} onChange={(e) => setDays(e.target.value)}>
            <option value="">never</option>
            <option value="7">in 7 days</option>
            <option value="30">in 30 days</option>
            <option value="90">in 90 days</option>
            <option value="365">in a year</option>
          </select>
        </div>
      </div>
      <fieldset>
        <legend>Scopes</legend>
        <label className="check">
          <input type="checkbox" checked disabled /> read
        </label>
        <label className="check">
          <input type="checkbox" checked={write} onChange={(e) => setWrite(e.target.checked)} /> write (submit jobs, upload, spend)
        </label>
        <label className="check">
          <input type="checkbox" checked={structure} onChange={(e) => setStructure(e.target.checked)} /> send structures to public lookups
        </label>
      </fieldset>
      <button type="submit" disabled={busy}>
        Create key
      </button>
      <ProblemView
        problem={problem}
        fields={[
          ['body', 'name'],
          ['body', 'spend_ceiling_usd'],
          ['body', 'expires_at'],
        ]}
      />
    </form>
  );
}
