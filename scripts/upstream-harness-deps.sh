#!/usr/bin/env bash
# What running upstream's Python harness beside ours needs: Debian's python3 with the four packages
# its README names (PyYAML, click, rich, python-dotenv). Installed when missing; idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
if ! /usr/bin/python3 -c 'import yaml, click, rich, dotenv' 2>/dev/null; then
  apt_install "running upstream's harness side by side" python3 python3-yaml python3-click python3-rich python3-dotenv
fi
