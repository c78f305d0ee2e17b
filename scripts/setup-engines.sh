#!/usr/bin/env bash
# Installs the compute engines from Debian's packages (docs/engines.md, "Installation"):
# xtb, MOPAC, Open Babel, AutoDock Vina, Psi4, NWChem (with Open MPI's mpirun), RDKit's Python
# library (python3-rdkit, run by /usr/bin/python3), and for structure-based design PDBFixer
# (python3-pdbfixer), PDB2PQR with PROPKA and PLIP. Safe to run
# again: it does nothing when all of them are there. Needs root (or sudo) and apt.
set -euo pipefail
PACKAGES=(xtb mopac openbabel autodock-vina psi4 nwchem python3-rdkit python3-pdbfixer pdb2pqr python3-propka plip)
BINARIES=(xtb mopac obabel vina psi4 nwchem mpirun pdb2pqr30 propka3 plipcmd)
missing=()
for bin in "${BINARIES[@]}"; do command -v "$bin" >/dev/null 2>&1 || missing+=("$bin"); done
has_rdkit() { /usr/bin/python3 -c 'import rdkit, pdbfixer' >/dev/null 2>&1; }
has_rdkit || missing+=("python3-rdkit/python3-pdbfixer")
if [ ${#missing[@]} -eq 0 ]; then
  echo "engines: ${BINARIES[*]}, python3-rdkit and python3-pdbfixer are installed"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "engines: missing ${missing[*]}, and this system has no apt-get: install the Debian/Ubuntu packages ${PACKAGES[*]} (or the same programs) yourself" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
if ! $SUDO apt-get install -y --no-install-recommends "${PACKAGES[@]}"; then
  $SUDO apt-get update
  $SUDO apt-get install -y --no-install-recommends "${PACKAGES[@]}"
fi
for bin in "${BINARIES[@]}"; do command -v "$bin" >/dev/null || { echo "engines: $bin is still missing" >&2; exit 1; }; done
has_rdkit || { echo "engines: /usr/bin/python3 still cannot import rdkit and pdbfixer" >&2; exit 1; }
echo "engines: installed ${PACKAGES[*]}"
