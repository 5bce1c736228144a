#!/usr/bin/env bash
# npm run train:toxicity-self-harm-reader: read the served model's `self_harm` signal from a lower
# layer's token states (self_harm_reader.py): the graph gains the output `self_harm_states`, config.json
# the reader's weights and threshold; the weights and the other outputs stay as they are. Run it on the
# served folder without a reader (after train:toxicity-stack, which fits the stack to the graph it has).
# About 5 minutes on an idle 2-core AVX2 EPYC: prepare (only when its outputs are missing) -> written
# rows (TS) -> features of five layers and the selection (Python).
# Env: VIGIL_DATA_DIR, VIGIL_PYTHON, TOX_THREADS.
set -euo pipefail
cd "$(dirname "$0")/../.."
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-PASSIVE}
export TOX_THREADS=${TOX_THREADS:-2}
started=$(date +%s)

echo "== 0/3 Python environment (.work/venv)"
# shellcheck source=python-env.sh
source training/toxic_transformer_v1/python-env.sh
echo "== 1/3 prepare: corpora -> splits -> token ids (.work/toxicity), unless already there"
if [ ! -f .work/toxicity/val.jsonl ]; then npx tsx training/toxic_transformer_v1/prepare.ts ${VIGIL_DATA_DIR:+--data "$VIGIL_DATA_DIR"}; fi
if [ ! -f .work/toxicity/selfharm_val.jsonl ]; then npx tsx training/toxic_transformer_v1/prepare-patch.ts ${VIGIL_DATA_DIR:+--data "$VIGIL_DATA_DIR"}; fi
echo "== 2/3 written self-harm rows (self-harm-head.json, self-harm-validation.json)"
npx tsx training/toxic_transformer_v1/prepare-self-harm-head.ts
echo "== 3/3 the reader: layer states, the fit and its selection (log: .work/toxicity/self-harm-reader.log)"
"$PY" training/toxic_transformer_v1/self_harm_reader.py 2>&1 | tee .work/toxicity/self-harm-reader.log
echo "train:toxicity-self-harm-reader done in $(($(date +%s) - started)) s"
