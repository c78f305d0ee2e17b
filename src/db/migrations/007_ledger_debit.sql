-- A debit: money taken out of a wallet without a reservation (an operator's negative credit
-- through `crucible wallet credit --usd -N`; the Assistant's per-token debits later).
ALTER TABLE ledger DROP CONSTRAINT IF EXISTS ledger_kind_check;
ALTER TABLE ledger ADD CONSTRAINT ledger_kind_check CHECK (kind IN ('credit', 'reserve', 'release', 'charge', 'debit'));
