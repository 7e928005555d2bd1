# Sourced by scripts/test and scripts/serve: create .venv (Python 3.11) if missing and install the
# project with the extras given as "$1" (e.g. "[test]"), at the versions pinned in constraints.txt.
install_into_venv() {
  local python=${PYTHON:-python3.11}
  if [ ! -x .venv/bin/python ]; then
    echo "creating .venv with $python" >&2
    "$python" -m venv .venv
  fi
  echo "installing dependencies (pinned by constraints.txt)" >&2
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -c constraints.txt -e ".$1"
}
