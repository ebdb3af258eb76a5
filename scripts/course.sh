#!/usr/bin/env bash
# Set up the course (the package with its `course` extra, at the pinned versions of
# constraints.txt) and open chapter 00 in JupyterLab.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/_env.sh
python -m pip install -q -c constraints.txt -e ".[course]" </dev/null
# JupyterLab refuses to start as root ("Running as root is not recommended") unless told it is
# meant: in a Docker container or on a cloud VM the only user is often root.
root=()
if [ "$(id -u)" = "0" ]; then
  root=(--allow-root)
fi
exec python -m jupyter lab "${root[@]}" notebooks/00_start_here.ipynb "$@"
