#!/usr/bin/env bash
# npm run train:toxicity: prepare (TS) -> train (Python/torch) -> int8 quantise -> thresholds + metrics (TS).
# Rebuilds models/toxic_transformer_v1/ from ../shared/data and GloVe, from scratch, with fixed seeds.
# Needs Debian's python3 with torch, onnx, numpy, sklearn (not a pyenv python3 on PATH):
#   sudo apt-get install -y python3-torch python3-onnx python3-numpy python3-sklearn
# Env: VIGIL_DATA_DIR (default ../shared/data), TOX_THREADS (torch threads, default 2), and train.py's
#      TOX_* settings (the defaults are the shipped recipe). Uses CUDA automatically when torch sees a GPU.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${VIGIL_PYTHON:-/usr/bin/python3}
if ! "$PY" -c 'import torch, onnx, numpy, sklearn' 2>/dev/null; then
  echo "train:toxicity needs Python with torch, onnx, numpy and scikit-learn:" >&2
  echo "  sudo apt-get install -y python3-torch python3-onnx python3-numpy python3-sklearn" >&2
  echo "(set VIGIL_PYTHON to use another interpreter that has them)" >&2
  exit 1
fi
mkdir -p .work/toxicity models/toxic_transformer_v1/onnx
# Spin-waiting OpenMP threads collapse throughput when another process holds a core.
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-PASSIVE}
export TOX_THREADS=${TOX_THREADS:-2}

echo "== 1/4 prepare: corpora -> splits, vocabulary + GloVe vectors, token ids (.work/toxicity)"
npx tsx models/toxic_transformer_v1/prepare.ts ${VIGIL_DATA_DIR:+--data "$VIGIL_DATA_DIR"}
echo "== 2/4 train + export .work/toxicity/model.onnx (log: .work/toxicity/train.log)"
"$PY" models/toxic_transformer_v1/train.py 2>&1 | grep --line-buffered -v 'Warning' | tee .work/toxicity/train.log
echo "== 3/4 int8 dynamic quantisation -> onnx/model_quantized.onnx"
"$PY" models/toxic_transformer_v1/quantize.py .work/toxicity/model.onnx models/toxic_transformer_v1/onnx/model_quantized.onnx
echo "== 4/4 thresholds from validation -> config.json; metrics.json; parity fixture"
npx tsx models/toxic_transformer_v1/evaluate.ts
