#!/bin/sh
# Builds the Python package and tests it against the command line, as CI does, from a fresh clone:
# a virtual environment (python/.venv, or $VENV), maturin, pytest, mypy, pyarrow and Dask in it, the
# wheel built and installed, then pytest on python/tests, mypy's stubtest on the type stubs, and the
# tour notebook (examples/tour.ipynb) executed headless and checked.
#
#   python/build_and_test.sh            # the wheel in release, as `pip install ./python` builds it
#   PROFILE=dev python/build_and_test.sh  # a debug wheel: builds in half the time, tests as well
#
# The tests compare with the command line at $REFEREE, else target/debug/referee, which is built
# (cargo build) when it is missing. Python 3.9 or later and a Rust toolchain are needed.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
venv=${VENV:-$here/.venv}
profile=${PROFILE:-release}
python=${PYTHON:-python3}

step() { printf '== %s (%ss)\n' "$1" "$(($(date +%s) - started))" >&2; }
started=$(date +%s)

step "virtual environment in $venv"
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
# pyarrow for the tables, Dask for examples/dask_verify.py (tests/test_dask_example.py): about 7 s
# and 210 MB (pyarrow 170 MB), without numpy or pandas.
"$venv/bin/python" -m pip install --quiet "maturin>=1.9.4,<2" pytest mypy "pyarrow>=11" "dask[distributed]"

if [ -z "${REFEREE:-}" ]; then
    REFEREE=${CARGO_TARGET_DIR:-$repo/target}/debug/referee
    if [ ! -x "$REFEREE" ]; then
        step "the command line, to compare with (cargo build)"
        cargo build --manifest-path "$repo/Cargo.toml" --bin referee
    fi
fi
export REFEREE

step "the wheel ($profile)"
rm -rf "$here/dist"
"$venv/bin/maturin" build --manifest-path "$here/Cargo.toml" --profile "$profile" --out "$here/dist"
"$venv/bin/python" -m pip install --quiet --force-reinstall --no-deps "$here"/dist/referee-*.whl

step "pytest"
# From the tests' folder, so that `import referee` is the installed wheel, not python/referee/.
cd "$here/tests"
"$venv/bin/python" -m pytest -q -p no:cacheprovider .

step "the type stubs against the module (mypy stubtest)"
"$venv/bin/python" -m mypy.stubtest referee

step "the tour notebook, executed headless (examples/tour.ipynb, into dist/tour.ipynb)"
# nbclient runs it in a kernel of the virtual environment's Python; matplotlib draws its histogram.
# About 25 s to install the first time (250 MB: numpy, matplotlib, ipykernel), then 5 s to run and
# check.
"$venv/bin/python" -m pip install --quiet nbclient ipykernel matplotlib
"$venv/bin/python" "$here/examples/run_notebook.py" "$here/examples/tour.ipynb" "$here/dist/tour.ipynb"

step "done"
