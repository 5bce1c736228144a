#!/usr/bin/env bash
# The steps train.sh, patch.sh and self-harm-head.sh share after a run has exported .work/toxicity/model.onnx: int8 weights
# (files under 20 MB) -> thresholds and metrics -> long-text windows. The lexical stack is its own step
# afterwards (npm run train:toxicity-stack, which chooses the long-text windows again on the stacked heads). Sourced by each, from the repository root, with PY set to the pinned venv's interpreter and STEP to the next step number.
# SKIP_QUANTIZE=1: the served graph was edited in place (self-harm-head.sh), there is no new export.
if [ "${SKIP_QUANTIZE:-0}" != 1 ]; then
  echo "== $STEP/$TOTAL int8 weights, float32 arithmetic -> onnx/model_quantized.onnx + its data files (each under 20 MB)"
  "$PY" training/toxic_transformer_v1/quantize.py .work/toxicity/model.onnx models/toxic_transformer_v1/onnx/model_quantized.onnx
else
  STEP=$((STEP - 1))
fi
echo "== $((STEP + 1))/$TOTAL thresholds (and the self-harm threshold) from validation -> config.json; metrics.json; reproduce fixture"
npx tsx training/toxic_transformer_v1/evaluate.ts
echo "== $((STEP + 2))/$TOTAL how long texts read their windows, chosen on validation -> config.json window_aggregation; metrics.json long_texts"
npx tsx training/toxic_transformer_v1/long-text-aggregation.ts --write
