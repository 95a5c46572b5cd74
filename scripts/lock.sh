#!/bin/sh
# Refresh the lock files from pyproject.toml, the only list of Darwin's dependencies:
#   requirements.txt      what the bot runs with (the Docker image installs it)
#   requirements-dev.txt  the same versions plus the tests' packages (CI installs it)
# Every package, direct or not, at an exact version with the hashes of its files.
#
#   sh scripts/lock.sh                 keep the pinned versions that still fit pyproject.toml
#   sh scripts/lock.sh --upgrade       every package at its newest version that fits
#   sh scripts/lock.sh -P pillow       only that package at its newest version
#
# Needs uv (python -m pip install uv). It reads PyPI only (not pip's configuration).
set -eu
cd "$(dirname "$0")/.."
compile="uv pip compile pyproject.toml --universal --python-version 3.11 --generate-hashes"
$compile --custom-compile-command "sh scripts/lock.sh" --quiet \
    --output-file requirements.txt "$@"
$compile --custom-compile-command "sh scripts/lock.sh" --quiet --extra test \
    --constraint requirements.txt --output-file requirements-dev.txt "$@"
