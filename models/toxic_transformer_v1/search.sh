#!/usr/bin/env bash
# Wider search on a lent GPU machine (not part of the CPU recipe): trains several configurations of
# train.py side by side on one GPU and quantises each. Input: a folder holding prepare.ts's output
# (train/val/test/identity_val .jsonl.gz, glove_init.f32.gz); output: one folder per run with
# model_quantized.onnx, hf_config.json and train-summary.json.
#   bash models/toxic_transformer_v1/search.sh IN_DIR OUT_DIR "TAG:ENV=V,ENV=V" ...
set -euo pipefail
cd "$(dirname "$0")/../.."
in=$1 out=$2
shift 2
work=/tmp/toxwork
mkdir -p "$work" "$out"
for f in "$in"/*.gz; do gunzip -c "$f" >"$work/$(basename "$f" .gz)"; done
pids=()
for spec in "$@"; do
  tag=${spec%%:*} envs=${spec#*:}
  dir=$work/$tag
  mkdir -p "$dir"
  ln -sf "$work"/*.jsonl "$work/glove_init.f32" "$dir/"
  (
    export TOX_WORK_DIR=$dir TOX_TAG=$tag
    IFS=, read -ra kv <<<"$envs"
    for e in "${kv[@]}"; do [ -n "$e" ] && export "$e"; done
    python3 models/toxic_transformer_v1/train.py >"$dir/train.log" 2>&1
    python3 models/toxic_transformer_v1/quantize.py "$dir/model.onnx" "$dir/model_quantized.onnx" >>"$dir/train.log" 2>&1
    cp "$dir/model_quantized.onnx" "$out/$tag.onnx"
  ) &
  pids+=($!)
done
rc=0
for p in "${pids[@]}"; do wait "$p" || rc=1; done
for spec in "$@"; do tag=${spec%%:*}; grep -h "epoch .*: val\|best validation\|Error\|error" "$work/$tag/train.log" | sed "s/^/$tag /" || true; done
# One archive of every run's small files (the device tool returns at most 8 files).
tar czf "$out/runs.tgz" -C "$work" $(for spec in "$@"; do t=${spec%%:*}; echo "$t/hf_config.json $t/train-summary.json $t/train.log"; done) || true
exit $rc
