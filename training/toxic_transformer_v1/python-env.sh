#!/usr/bin/env bash
# The pinned Python environment train.sh and patch.sh share: creates .work/venv and installs
# requirements.txt when they changed, then sets PY. Sourced from the repository root.
VENV=.work/venv
REQ=training/toxic_transformer_v1/requirements.txt
if [ ! -x "$VENV/bin/python" ]; then
  "${VIGIL_PYTHON:-python3}" -m venv "$VENV"
fi
if ! cmp -s "$REQ" "$VENV/.requirements.txt"; then
  "$VENV/bin/pip" install --disable-pip-version-check -q -r "$REQ"
  cp "$REQ" "$VENV/.requirements.txt"
fi
PY=$VENV/bin/python
