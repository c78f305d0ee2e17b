#!/usr/bin/env bash
# Installs what the Python SDK (clients/python) and its tests need, from Debian's packages only:
# httpx (its one dependency), pandas (to_dataframe()), pytest and mypy (the tests type-check it),
# and venv and pip, with which `pip install ./clients/python` builds and installs it offline (the
# package's own build backend needs no setuptools or wheel; test/clients/python-install.test.ts).
# test/clients/python.test.ts uses Debian's python3 (/usr/bin/python3), where apt puts them.
# Safe to run again: it does nothing when all are there. Needs root (or sudo) and apt.
set -euo pipefail
PACKAGES=(python3-httpx python3-pandas python3-pytest python3-mypy python3-venv python3-pip)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "python: ${PACKAGES[*]} are installed"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "python: missing ${missing[*]}, and this system has no apt-get: install httpx, pandas, pytest and mypy (and venv) for python3 (3.9 or later) yourself" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
if ! $SUDO apt-get install -y --no-install-recommends "${missing[@]}"; then
  $SUDO apt-get update
  $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi
/usr/bin/python3 -c 'import httpx, pandas, pytest, mypy, venv, ensurepip' || { echo "python: /usr/bin/python3 still lacks a package" >&2; exit 1; }
echo "python: installed ${missing[*]}"
