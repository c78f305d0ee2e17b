// The registry of lookup sources: one line per source client.
import type { SourceDefinition } from '../source.js';
import { chemblSource } from './chembl.js';
import { openTargetsSource } from './opentargets.js';
import { pubchemSource } from './pubchem.js';
import { pubchemViewSource } from './pubchem-view.js';
import { rcsbSource } from './rcsb.js';
import { uniprotSource } from './uniprot.js';

export const SOURCES: readonly SourceDefinition[] = [pubchemSource, pubchemViewSource, chemblSource, openTargetsSource, uniprotSource, rcsbSource];
