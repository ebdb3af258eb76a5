#!/usr/bin/env bash
# Set up and run the whole test suite:
#   1. the package tests (tests/),
#   2. the executed solution notebooks under full nbval (outputs compared with a fresh run),
#   3. the learner notebooks under nbval-lax (they must run top to bottom without error).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install -q -e ".[course,test]" </dev/null
python3 -m pytest "$@"
shopt -s nullglob
solutions=(notebooks/solutions/[0-9][0-9]_*.ipynb)
learner=(notebooks/[0-9][0-9]_*.ipynb)
if [ ${#solutions[@]} -gt 0 ]; then
  python3 -m pytest -p no:cacheprovider --nbval --nbval-sanitize-with notebooks/sanitize.cfg \
    --nbval-cell-timeout 120 "${solutions[@]}"
  python3 -m pytest -p no:cacheprovider --nbval-lax --nbval-cell-timeout 120 "${learner[@]}"
fi
