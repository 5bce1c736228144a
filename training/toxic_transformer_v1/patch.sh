#!/usr/bin/env bash
# npm run train:toxicity-patch: the shipped toxic_transformer_v1 is a base model patched on the CPU.
# The base is the full fine-tune of train.py (train.sh; about 3 hours on a 2-core AVX2 CPU), whose int8
# weights (artifact 86ba157580b8) are read from git history, so this step needs neither a GPU nor the
# 3-hour run: prepare (TS) -> patch rows (TS) -> patch.py (Python/torch, 1,198 s at 1.5-1.9 s a
# step on an idle 2-core AVX2 EPYC, 50 minutes when the machine is shared; it checkpoints and resumes)
# -> int8 weights -> thresholds and metrics -> long-text windows.
# Env: VIGIL_DATA_DIR, VIGIL_PYTHON, TOX_THREADS, TOX_PATCH_BASE_COMMIT (the commit that holds the base
# weights) and patch.py's TOX_PATCH_* settings (the defaults are the shipped recipe).
set -euo pipefail
cd "$(dirname "$0")/../.."
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-PASSIVE}
export TOX_THREADS=${TOX_THREADS:-2}
BASE_COMMIT=${TOX_PATCH_BASE_COMMIT:-16e1541}
BASE=.work/toxicity/base
started=$(date +%s)

echo "== 0/6 Python environment (.work/venv) and the base model (commit $BASE_COMMIT -> $BASE)"
# shellcheck source=python-env.sh
source training/toxic_transformer_v1/python-env.sh
mkdir -p "$BASE/onnx"
git show "$BASE_COMMIT:models/toxic_transformer_v1/config.json" > "$BASE/config.json"
for f in model_quantized.onnx model_quantized.onnx_data model_quantized.onnx_data_1; do
  git show "$BASE_COMMIT:models/toxic_transformer_v1/onnx/$f" > "$BASE/onnx/$f"
done

echo "== 1/6 prepare: corpora -> splits -> token ids (.work/toxicity)"
npx tsx training/toxic_transformer_v1/prepare.ts ${VIGIL_DATA_DIR:+--data "$VIGIL_DATA_DIR"}
echo "== 2/6 patch rows: written contrast rows, self-harm tweets, counterfactual identity pairs"
npx tsx training/toxic_transformer_v1/prepare-patch.ts ${VIGIL_DATA_DIR:+--data "$VIGIL_DATA_DIR"}
echo "== 3/6 patch the base model + export .work/toxicity/model.onnx (log: .work/toxicity/patch.log)"
TOX_PATCH_BASE="$BASE" "$PY" training/toxic_transformer_v1/patch.py 2>&1 | grep --line-buffered -v 'Warning' | tee .work/toxicity/patch.log
STEP=4 TOTAL=6
# shellcheck source=finish.sh
source training/toxic_transformer_v1/finish.sh
echo "train:toxicity-patch done in $(($(date +%s) - started)) s"
