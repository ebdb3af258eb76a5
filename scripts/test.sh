#!/usr/bin/env bash
# Set up and run the whole test suite: the package tests, the solution notebooks under full
# nbval, and the learner notebooks under nbval-lax.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install -q -e ".[course,test]" </dev/null
python3 -m pytest "$@"
