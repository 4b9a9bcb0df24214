#!/usr/bin/env bash
# The Python package's tests (python/tests), run by scripts/test.sh: a venv, build/python-venv,
# in which `pip install ./python` builds the package from source as a user's pip would
# (scikit-build-core compiling libwarpcrypt; cffi from PyPI), beside pyrage 1.4.0 from PyPI for
# the interop tests and the benchmark (scripts/bench-python.py), and pytest.
#
# The build directory is kept (build/python-build) so that a second run rebuilds only what
# changed; CI starts without it.
# Usage: scripts/test-python.sh [pytest args...]
set -euo pipefail
cd "$(dirname "$0")/.."

venv=build/python-venv
if ! "$venv/bin/python" -c 'import pytest, pyrage, cffi' 2>/dev/null; then
  echo "warpcrypt: making $venv (pytest, cffi, pyrage 1.4.0)" >&2
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check 'pytest>=7' 'cffi>=1.15' 'pyrage==1.4.0'
fi

started=$SECONDS
# --no-build-isolation would reuse the venv's packages; isolation is what a user's pip does.
"$venv/bin/pip" install -q --disable-pip-version-check --force-reinstall --no-deps \
  --config-settings=build-dir="$PWD/build/python-build" ./python
echo "warpcrypt: pip install ./python took $((SECONDS - started)) s" >&2

# From outside the source tree, so that the installed package is the one imported.
cd build
exec "$PWD/python-venv/bin/python" -m pytest -q -p no:cacheprovider ../python/tests "$@"
