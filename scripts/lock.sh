#!/usr/bin/env bash
# Remake the lock files from pyproject.toml and requirements.in (docs/deploy.md): requirements.lock (the test
# extra with server, client, rl and arena, plus the build's requirements: CI and development) and
# requirements-server.lock (the server extra: a site), the second within the first's versions. Needs uv
# (pip install uv); the files it writes are installed with plain pip. Arguments go to both runs, e.g.
# --upgrade or --upgrade-package fastapi.
set -euo pipefail
cd "$(dirname "$0")/.."
target=(--generate-hashes --python-version 3.11 --python-platform x86_64-unknown-linux-gnu)
full=(pyproject.toml requirements.in --extra test "${target[@]}" -o requirements.lock)
uv pip compile "${full[@]}" --custom-compile-command "uv pip compile ${full[*]}" --quiet "$@"
site=(pyproject.toml requirements.in --extra server "${target[@]}" -c requirements.lock -o requirements-server.lock)
uv pip compile "${site[@]}" --custom-compile-command "uv pip compile ${site[*]}" --quiet "$@"
