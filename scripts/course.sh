#!/usr/bin/env bash
# Set up the course (the package with its `course` extra, at the pinned versions of
# constraints.txt) and open chapter 00 in JupyterLab.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/_env.sh
python -m pip install -q -c constraints.txt -e ".[course]" </dev/null
exec python -m jupyter lab notebooks/00_start_here.ipynb "$@"
