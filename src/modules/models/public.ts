// The public models shipped in the repository (models/public/<id>/: model.bin and card.json,
// made by `npm run models:train`; docs/models.md): read once, on first use.
import fs from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../paths.js';

export const PUBLIC_DIR = path.join(PACKAGE_ROOT, 'models', 'public');

export interface PublicCard {
  id: string;
  name: string;
  version: string;
  task: 'regression' | 'classification';
  target: { description: string; column: string; units: string | null };
  [field: string]: unknown;
}

export interface PublicModel {
  card: PublicCard;
  weightsPath: string;
}

let catalog: Map<string, PublicModel> | null = null;

/** Every public model, by id (models/public/<id>/card.json beside its model.bin). */
export function publicModels(): Map<string, PublicModel> {
  if (catalog) return catalog;
  const found = new Map<string, PublicModel>();
  const dirs = fs.existsSync(PUBLIC_DIR) ? fs.readdirSync(PUBLIC_DIR, { withFileTypes: true }).filter((d) => d.isDirectory()) : [];
  for (const d of dirs.sort((a, b) => a.name.localeCompare(b.name))) {
    const cardPath = path.join(PUBLIC_DIR, d.name, 'card.json');
    const weightsPath = path.join(PUBLIC_DIR, d.name, 'model.bin');
    if (!fs.existsSync(cardPath) || !fs.existsSync(weightsPath)) continue;
    const card = JSON.parse(fs.readFileSync(cardPath, 'utf8')) as PublicCard;
    found.set(card.id, { card, weightsPath });
  }
  catalog = found;
  return found;
}
