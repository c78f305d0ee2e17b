// Why RDKit refused an input, in words: RDKit reports parse and sanitisation failures on its
// `rdApp.error` log; the input is parsed again with that log captured (only on the failure
// path, so successful parses cost nothing extra) and the first message is cleaned up for a
// client ("unclosed ring", "extra open parentheses at position 3", "explicit valence for atom
// # 0 C, 5, is greater than permitted"). Runs inside a chemistry worker thread.
import type { RDKitModule } from './rdkit.js';

/** Longest detail returned (RDKit echoes the input in some messages). */
const MAX_DETAIL = 200;

function captureErrors<T extends { delete(): void }>(rdkit: RDKitModule, parse: () => T | null): string {
  const log = rdkit.set_log_capture('rdApp.error');
  if (!log) return '';
  try {
    log.clear_buffer();
    try {
      parse()?.delete();
    } catch {
      /* the message is what matters here */
    }
    return log.get_buffer();
  } finally {
    log.delete();
  }
}

/** RDKit's log lines as one short sentence. */
export function summarizeRdkitLog(buffer: string): string {
  const lines = buffer
    .split('\n')
    .map((l) => l.replace(/^\[\d\d:\d\d:\d\d\]\s*/, '').trim())
    .filter(Boolean);
  const parseError = lines.find((l) => l.startsWith('SMILES Parse Error:') && !/check for mistakes|Failed parsing/.test(l));
  if (parseError) {
    const what = parseError
      .replace(/^SMILES Parse Error:\s*/, '')
      .replace(/\s+(for input|while parsing):.*$/, '')
      .trim();
    const position = lines.map((l) => /check for mistakes around position (\d+)/.exec(l)?.[1]).find(Boolean);
    return clip(position ? `${what} at position ${position}` : what);
  }
  const first = lines.find((l) => !/^(SMILES Parse Error: Failed parsing|~*\^)/.test(l));
  return clip(
    (first ?? '')
      .replace(/\.\s+/g, ': ')
      .replace(/\s+/g, ' ')
      .replace(/^Explicit/, 'explicit'),
  );
}

function clip(s: string): string {
  return s.length > MAX_DETAIL ? `${s.slice(0, MAX_DETAIL - 1)}…` : s;
}

/** Why RDKit cannot read `smiles` as a molecule (a short sentence; a generic one when RDKit says nothing). */
export function explainSmiles(rdkit: RDKitModule, smiles: string): string {
  if (smiles.trim() === '') return 'empty input';
  return summarizeRdkitLog(captureErrors(rdkit, () => rdkit.get_mol(smiles))) || 'RDKit cannot read this as SMILES';
}

/** Why RDKit cannot read `rxn` as a reaction SMILES. */
export function explainReaction(rdkit: RDKitModule, rxn: string): string {
  if (rxn.trim() === '') return 'empty input';
  if ((rxn.trim().split(/\s+/)[0] ?? '').split('>').length !== 3) return 'a reaction SMILES has three parts: reactants>agents>products';
  return summarizeRdkitLog(captureErrors(rdkit, () => rdkit.get_rxn(rxn, JSON.stringify({ useSmiles: true })))) || 'RDKit cannot read this as a reaction SMILES';
}
