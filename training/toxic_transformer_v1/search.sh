#!/usr/bin/env bash
# Wider search on a GPU machine (not part of the CPU recipe): fine-tunes several configurations of
# train.py side by side on one GPU. Input: a folder with prepare.ts's output (train, val,
# identity_val, sexism_dev as .jsonl or .jsonl.gz) and an encoder folder (config.json +
# model.safetensors); output: one folder per run with model.onnx, hf_config.json, train-summary.json
# and log.txt. Select with a rule written before the runs (the card's "Selection" section).
#   bash training/toxic_transformer_v1/search.sh IN_DIR ENCODER_DIR OUT_DIR "TAG:ENV=V,ENV=V" ...
set -euo pipefail
cd "$(dirname "$0")/../.."
in=$(realpath "$1") encoder=$(realpath "$2") out=$3
shift 3
mkdir -p "$out"
export PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 OMP_NUM_THREADS=2
pids=()
for spec in "$@"; do
  tag=${spec%%:*} envs=${spec#*:}
  dir=$out/$tag
  mkdir -p "$dir"
  for f in "$in"/*.jsonl*; do ln -sf "$f" "$dir/"; done
  # shellcheck disable=SC2046
  env TOX_ENCODER_DIR="$encoder" TOX_WORK_DIR="$dir" TOX_TAG="$tag" $(tr ',' ' ' <<<"$envs") \
    python3 training/toxic_transformer_v1/train.py >"$dir/log.txt" 2>&1 &
  pids+=($!)
done
status=0
for p in "${pids[@]}"; do wait "$p" || status=1; done
grep -h "best validation" "$out"/*/log.txt || true
exit $status
