#!/usr/bin/env bash
# Installs Debian's chromium for the web console's browser tests (test/web, docs/console.md):
# playwright-core drives /usr/bin/chromium; no browser is downloaded by npm. Safe to run again:
# it does nothing when chromium is there. Needs root (or sudo) and apt.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
  echo "browser: chromium is installed"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "browser: chromium is missing and this system has no apt-get: install Chromium yourself and set CRUCIBLE_CHROMIUM to its path" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
if ! $SUDO apt-get install -y --no-install-recommends chromium; then
  $SUDO apt-get update
  $SUDO apt-get install -y --no-install-recommends chromium
fi
command -v chromium >/dev/null || { echo "browser: chromium is still missing" >&2; exit 1; }
echo "browser: installed chromium"
