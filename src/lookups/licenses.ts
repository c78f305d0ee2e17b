// Which PubChem depositors' values the properties lookup may hand out. PUG-View lists, per
// value, a reference carrying the depositor's `LicenseURL` and/or `LicenseNote`. A value is
// kept only when that licence is on the allowed list below; every other value (a supplier
// or database with no licence stated, a non-commercial or no-derivatives licence, terms of
// use that restrict redistribution) is dropped and counted in `data.excluded`.
//
// Allowed (docs/lookups.md keeps the same list):
//   CC0-1.0           creativecommons.org/publicdomain/zero/...            or a note naming CC0
//   public-domain     creativecommons.org/publicdomain/mark/...            or a note saying "public domain"
//   US-government     a licence URL on a US federal agency host (nih.gov, nlm.nih.gov, cdc.gov,
//                     noaa.gov, epa.gov, fda.gov, usgs.gov, osha.gov, nist.gov is NOT included:
//                     NIST Standard Reference Data is copyrighted)
//   CC-BY             creativecommons.org/licenses/by/<v>                   or a note "CC BY <v>"
//   CC-BY-SA          creativecommons.org/licenses/by-sa/<v>                or a note "CC BY-SA <v>"
// Not allowed: CC BY-NC, CC BY-ND, CC BY-NC-SA, CC BY-NC-ND, anything else, and no licence.

type AllowedLicense = 'CC0-1.0' | 'public-domain' | 'US-government' | 'CC-BY' | 'CC-BY-SA';

export const ALLOWED_LICENSES: readonly AllowedLicense[] = ['CC0-1.0', 'public-domain', 'US-government', 'CC-BY', 'CC-BY-SA'];

const US_GOV_HOSTS = ['nih.gov', 'cdc.gov', 'noaa.gov', 'epa.gov', 'fda.gov', 'usgs.gov', 'osha.gov', 'energy.gov', 'usda.gov'];

function fromUrl(raw: string): AllowedLicense | 'restricted' | null {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return null;
  }
  const host = u.hostname.toLowerCase();
  const path = u.pathname.toLowerCase();
  if (host === 'creativecommons.org' || host.endsWith('.creativecommons.org')) {
    if (path.startsWith('/publicdomain/zero/')) return 'CC0-1.0';
    if (path.startsWith('/publicdomain/mark/')) return 'public-domain';
    const m = /^\/licenses\/([a-z-]+)\//.exec(path + '/');
    if (m) {
      if (m[1] === 'by') return 'CC-BY';
      if (m[1] === 'by-sa') return 'CC-BY-SA';
      return 'restricted'; // by-nc, by-nd, by-nc-sa, by-nc-nd
    }
    return null;
  }
  if (US_GOV_HOSTS.some((h) => host === h || host.endsWith('.' + h))) return 'US-government';
  return null;
}

function fromNote(note: string): AllowedLicense | 'restricted' | null {
  const n = note.toLowerCase();
  if (/\b(non-?commercial|noncommercial|by-nc|by-nd|no ?derivatives|cc[- ]by[- ]n[cd])\b/.test(n)) return 'restricted';
  if (/\bcc0\b|creative commons zero/.test(n)) return 'CC0-1.0';
  if (/\bpublic domain\b/.test(n) && !/\bnot (in the )?public domain\b/.test(n)) return 'public-domain';
  if (/\bcc[- ]by[- ]sa\b|attribution[- ]sharealike/.test(n)) return 'CC-BY-SA';
  if (/\bcc[- ]by\b(?![- ]?(nc|nd|sa))|creative commons attribution \d/.test(n)) return 'CC-BY';
  return null;
}

/**
 * The allowed licence of a PUG-View reference, or null when its values must be dropped. The
 * URL decides when it names a licence; a restriction in either the URL or the note wins.
 */
export function classifyReferenceLicense(ref: { LicenseURL?: unknown; LicenseNote?: unknown } | undefined): AllowedLicense | null {
  if (!ref) return null;
  const byUrl = typeof ref.LicenseURL === 'string' ? fromUrl(ref.LicenseURL) : null;
  const byNote = typeof ref.LicenseNote === 'string' ? fromNote(ref.LicenseNote) : null;
  if (byUrl === 'restricted' || byNote === 'restricted') return null;
  return byUrl ?? byNote ?? null;
}
