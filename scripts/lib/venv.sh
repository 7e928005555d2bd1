# Sourced by scripts/test and scripts/serve: pick a Python (3.11 or newer), create its virtual
# environment if missing and install the project with the extras given as "$1" (e.g. "[test]") at the
# versions pinned in constraints.txt (one file for Python 3.11, 3.12 and 3.13).
#
#   PYTHON  the interpreter to use (a command or a path); unset: the first of python3.11, python3.12,
#           python3.13, python3 that runs and is 3.11 or newer
#   VENV    the environment's folder; default .venv, or .venv-pyX.Y when PYTHON is set, so that
#           `PYTHON=python3.13 scripts/test` never reuses (or breaks) the 3.11 environment
# After sourcing, "$VENV" names the folder (e.g. "$VENV/bin/advisor").

_python_ok() {
  "$1" -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1
}

pick_python() {
  if [ -n "${PYTHON:-}" ]; then
    if ! _python_ok "$PYTHON"; then
      echo "error: PYTHON=$PYTHON does not run, or is older than Python 3.11" >&2
      return 1
    fi
    echo "$PYTHON"
    return 0
  fi
  local candidate
  for candidate in python3.11 python3.12 python3.13 python3; do
    if _python_ok "$candidate"; then
      echo "$candidate"
      return 0
    fi
  done
  echo "error: no Python 3.11 or newer found (set PYTHON=/path/to/python3.x)" >&2
  return 1
}

install_into_venv() {
  local python version
  python=$(pick_python)
  version=$("$python" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
  if [ -z "${VENV:-}" ]; then
    if [ -n "${PYTHON:-}" ]; then VENV=".venv-py$version"; else VENV=".venv"; fi
  fi
  export VENV
  if [ -x "$VENV/bin/python" ] && ! "$VENV/bin/python" -c "import sys; sys.exit(f'{sys.version_info[0]}.{sys.version_info[1]}' != '$version')"; then
    echo "error: $VENV holds another Python than $python ($version); remove it or set VENV" >&2
    return 1
  fi
  if [ ! -x "$VENV/bin/python" ]; then
    echo "creating $VENV with $python ($version)" >&2
    "$python" -m venv "$VENV"
  fi
  echo "installing dependencies into $VENV (pinned by constraints.txt)" >&2
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -c constraints.txt -e ".$1"
}
