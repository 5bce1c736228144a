#!/usr/bin/env bash
# npm run train:toxicity: prepare (TS) -> train + identity phase (Python/torch) -> stage 3 threat/identity
# fine-tune (step selected on validation) + ONNX export -> int8 quantise -> evaluate (TS).
# Needs Debian's python3 with torch, onnx, numpy, sklearn (not the pyenv python3 on PATH).
# Env: VIGIL_DATA_DIR (default ../shared/data), TOX_THREADS (torch threads, default 2),
#      TOX_EPOCHS (default 2), TOX_TIME_BUDGET_MIN (safety stop, default 62), TOX_SEED,
#      TOX_FT_* (stage 3, see finetune.py; TOX_FT_STEPS=0 skips it).
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${VIGIL_PYTHON:-/usr/bin/python3}
if ! "$PY" -c 'import torch, onnx, numpy, sklearn' 2>/dev/null; then
  echo "train:toxicity needs Debian's Python packages for torch, onnx, numpy and scikit-learn:" >&2
  echo "  sudo apt-get install -y python3-torch python3-onnx python3-numpy python3-sklearn" >&2
  echo "(set VIGIL_PYTHON to use another interpreter that has them)" >&2
  exit 1
fi
mkdir -p .work/toxicity
# Spin-waiting OpenMP threads collapse throughput when another process holds a core.
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-PASSIVE}
export TOX_THREADS=${TOX_THREADS:-2}

echo "== 1/5 prepare: corpora -> splits, WordPiece vocabulary, token ids (.work/toxicity)"
npx tsx models/toxic_transformer_v1/prepare.ts ${VIGIL_DATA_DIR:+--data "$VIGIL_DATA_DIR"}
echo "== 2/5 train (+ identity phase 2) and export model.onnx (log: .work/toxicity/train.log)"
"$PY" models/toxic_transformer_v1/train.py 2>&1 | grep --line-buffered -v 'Warning' | tee .work/toxicity/train.log
if [ "${TOX_FT_STEPS:-900}" != "0" ]; then
  echo "== 3/5 stage 3: threat + identity fine-tune, step chosen on validation (log: .work/toxicity/finetune.log)"
  "$PY" models/toxic_transformer_v1/finetune.py 2>&1 | grep --line-buffered -v 'Warning' | tee .work/toxicity/finetune.log
fi
echo "== 4/5 int8 dynamic quantisation -> model_quantized.onnx"
"$PY" models/toxic_transformer_v1/quantize.py
echo "== 5/5 evaluate -> metrics.json, thresholds in config.json"
npx tsx models/toxic_transformer_v1/evaluate.ts
