// What the calibration scripts share (docs/questions.md, "pKa calibration" and "Bond energy
// calibration"): a pool of concurrent runs and a CSV reader.
/** Runs `fn` over `items`, `n` at a time. */
export async function pool<T>(items: readonly T[], n: number, fn: (item: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i]!, i);
      }
    }),
  );
}

/** A CSV file's rows (quoted fields allowed, no newlines inside them). */
export function readCsv(text: string): Record<string, string>[] {
  const [head, ...rows] = text.trim().split('\n').map(splitCsvLine);
  return rows.map((r) => Object.fromEntries(head!.map((h, i) => [h, r[i] ?? ''])));
}

function splitCsvLine(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (ch === ',' && !quoted) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

/** The 0-based index of each mapped atom of a SMILES, by map number (atoms counted as RDKit reads them: bracket atoms and organic-subset symbols). */
export function mappedAtoms(smiles: string): Record<number, number> {
  const atoms = smiles.match(/\[[^\]]+\]|Br|Cl|[BCNOPSFI]|[bcnops]/g) ?? [];
  const out: Record<number, number> = {};
  atoms.forEach((a, i) => {
    const m = /:(\d+)\]$/.exec(a);
    if (m) out[Number(m[1])] = i;
  });
  return out;
}
