// What the DFT tests share (docs/engines.md, "DFT"): engine tools outside a job (the engines this
// process found, each call through runEngine as a job's are), a prepared structure from
// coordinates, and water at its experimental geometry.
import { localTools } from '../../src/engines/local-tools.js';
import type { Prepared } from '../../src/engines/tools.js';

/** EngineTools over the engines found on the PATH (src/engines/local-tools.ts). */
export const directTools = localTools;

/** A V2000 molblock of atoms without bonds (the DFT engines read coordinates only). */
export function molblockOf(symbols: string[], coords: [number, number, number][]): string {
  const atoms = symbols.map((s, i) => `${coords[i]!.map((x) => x.toFixed(4).padStart(10)).join('')} ${s.padEnd(3)} 0  0  0  0  0  0  0  0  0  0  0  0`);
  return `structure\n  crucible\n\n${String(symbols.length).padStart(3)}  0  0  0  0  0  0  0  0  0999 V2000\n${atoms.join('\n')}\nM  END\n`;
}

/** A Prepared structure from element symbols and coordinates (Å). */
export function preparedOf(symbols: string[], coords: [number, number, number][], index = 0): Prepared {
  return {
    index,
    id: String(index),
    input: molblockOf(symbols, coords),
    info: {
      atoms: symbols.length,
      heavy: symbols.filter((s) => s !== 'H').length,
      elements: [...new Set(symbols)],
      formalCharge: 0,
      electrons: 0,
      has3d: true,
      smiles: null,
      error: null,
    },
    molblock: molblockOf(symbols, coords),
    symbols,
    coords,
  };
}

/** Water at its experimental geometry: O-H 0.9572 Å, H-O-H 104.52° (in the yz plane, O at the origin). */
export function experimentalWater(): Prepared {
  const r = 0.9572;
  const half = ((104.52 / 2) * Math.PI) / 180;
  return preparedOf(
    ['O', 'H', 'H'],
    [
      [0, 0, 0],
      [0, r * Math.sin(half), r * Math.cos(half)],
      [0, -r * Math.sin(half), r * Math.cos(half)],
    ],
  );
}

/** Benzene (planar, C-C 1.39 Å, C-H 1.08 Å): a DFT calculation of some seconds or more with def2-TZVP, long enough to cancel. */
export function benzene(): Prepared {
  const ring = (r: number) => Array.from({ length: 6 }, (_, k) => [r * Math.cos((k * Math.PI) / 3), r * Math.sin((k * Math.PI) / 3), 0] as [number, number, number]);
  return preparedOf([...Array<string>(6).fill('C'), ...Array<string>(6).fill('H')], [...ring(1.39), ...ring(2.47)]);
}
