#!/usr/bin/env bash
# Set up and run the whole test suite:
#   0. ruff, the linter (its configuration is in pyproject.toml), on the code and the tests;
#   1. the package tests (tests/), which include the launch paths: the learner notebooks in an
#      environment like Colab's and the solution notebooks in what Binder builds;
#   2. the executed solution notebooks under full nbval (outputs compared with a fresh run);
#   3. the learner notebooks under nbval-lax (they must run top to bottom without error).
#
#   bash scripts/test.sh            the pinned versions of constraints.txt (what CI runs)
#   bash scripts/test.sh --latest   the newest release of every dependency instead: drift shows
#                                   up here first, before it reaches a learner
# Extra arguments go to the first pytest run (e.g. `bash scripts/test.sh -x -k autograd`).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/_env.sh
pins=(-c constraints.txt)
if [ "${1:-}" = "--latest" ]; then
  shift
  pins=(--upgrade --upgrade-strategy eager)
fi
python -m pip install -q "${pins[@]}" -e ".[course,test]" </dev/null
python -m ruff check minitorch tests bench scripts
python -m pytest "$@"
shopt -s nullglob
solutions=(notebooks/solutions/[0-9][0-9]_*.ipynb)
learner=(notebooks/[0-9][0-9]_*.ipynb)
if [ ${#solutions[@]} -gt 0 ]; then
  python -m pytest -p no:cacheprovider --nbval --nbval-sanitize-with notebooks/sanitize.cfg \
    --nbval-cell-timeout 120 "${solutions[@]}"
  python -m pytest -p no:cacheprovider --nbval-lax --nbval-cell-timeout 120 "${learner[@]}"
fi
