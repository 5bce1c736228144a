#!/usr/bin/env bash
# The steps train.sh and patch.sh share after a run has exported .work/toxicity/model.onnx: int8 weights
# (files under 20 MB) -> thresholds and metrics -> long-text windows. The lexical stack is its own step
# afterwards (npm run train:toxicity-stack). Sourced by both, from the repository root, with PY set to the pinned venv's interpreter and STEP to the next step number.
echo "== $STEP/$TOTAL int8 weights, float32 arithmetic -> onnx/model_quantized.onnx + its data files (each under 20 MB)"
"$PY" training/toxic_transformer_v1/quantize.py .work/toxicity/model.onnx models/toxic_transformer_v1/onnx/model_quantized.onnx
echo "== $((STEP + 1))/$TOTAL thresholds (and the self-harm threshold) from validation -> config.json; metrics.json; reproduce fixture"
npx tsx training/toxic_transformer_v1/evaluate.ts
echo "== $((STEP + 2))/$TOTAL how long texts read their windows, chosen on validation -> config.json window_aggregation; metrics.json long_texts"
npx tsx training/toxic_transformer_v1/long-text-aggregation.ts --write
