# Sourced by scripts/test.sh and scripts/course.sh: install into the active environment (a
# virtualenv or a conda environment), or, when none is active, into ./.venv, made here. A
# system Python is never changed (Debian and Ubuntu refuse that anyway: PEP 668).
if [ -z "${VIRTUAL_ENV:-}" ] && [ -z "${CONDA_PREFIX:-}" ] \
   && python3 -c 'import sys; sys.exit(sys.prefix != sys.base_prefix)'; then
  if [ ! -x .venv/bin/python ]; then
    echo "Making a virtualenv in .venv (python3 -m venv) ..."
    python3 -m venv .venv
  fi
  # shellcheck disable=SC1091
  . .venv/bin/activate
fi
