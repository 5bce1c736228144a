#!/usr/bin/env bash
# The one command a GPU session runs for the teacher, once per part that pack_for_device.sh made:
#
#   run(command="bash training/toxic_transformer_v1/teacher/gpu-step.sh", carry=[".work/device/call<k>"])
#
# Each call copies the parts it carries to $TEACHER_STAGE (outside the repository, kept while the
# machine stays warm) and checks them against manifest.sha256. While parts are missing it says which
# and stops. The call that completes the set unpacks the payload (int8 weights -> fp32 folder), then
# trains train_teacher.py once per seed in TEACHER_SEEDS while the time left in TEACHER_BUDGET_S
# covers another full seed, and writes to $OUT (at most 8 files come back):
#   teacher-s<seed>.npz    float16 logits for every train/val/identity_val/contrast_val/noun_val/sexism_dev row
#   teacher-s<seed>.json   validation AUC per head and the other selection measures, timings
#   teacher-log.txt        this script's output
# A later call with no carry and the payload already unpacked trains the seeds it is given.
#
# Expected time on one H100/H200 (all-mpnet-base-v2, 109 M parameters, about 86 M of them outside the
# embedding tables): one epoch is about 205k rows x 32 tokens (the prepared rows' mean; length-bucketed
# batches pad little) x 6 x 86 M = 3.4 PFLOP, so 3 epochs are about 10 PFLOP: 25 s at 400 TFLOP/s,
# 50 s at 200. At batch 128 an eager step of a 12-layer encoder also costs about 20-30 ms of kernel
# launches and Python, about 1,600 steps per epoch: 35-50 s. So 1.5-3 minutes a seed for 3 epochs, plus
# about 30 s for evaluations and the final logits (about 225k rows forward), plus under a minute of
# unpacking and loading once. The brief's coarser bound, 212k rows x 60 tokens x 3 epochs x 6 x 110 M
# = 25 PFLOP, is about 1 minute at 400 TFLOP/s. Budget 7 minutes for two seeds.
#
# Env: TEACHER_SEEDS (default "1 2"), TEACHER_BUDGET_S (seconds for this call from its start,
# default 420), TEACHER_MIN_SEED_S (the least time to start a first seed, default 200; later seeds
# need the first one's duration), TEACHER_ARGS (more train_teacher.py arguments, e.g. "--epochs 2"),
# TEACHER_STAGE (default /tmp/vigil-teacher), TEACHER_PY (default python3), DEVICE_DIR (where the
# carried parts are, default .work/device), OUT (default .work/teacher-out when run by hand).
set -uo pipefail
cd "$(dirname "$0")/../../.."
t0=$(date +%s)
STAGE=${TEACHER_STAGE:-/tmp/vigil-teacher}
OUTDIR=${OUT:-.work/teacher-out}
SEEDS=${TEACHER_SEEDS:-1 2}
BUDGET=${TEACHER_BUDGET_S:-420}
MIN_SEED=${TEACHER_MIN_SEED_S:-200}
PY=${TEACHER_PY:-python3}
HERE=training/toxic_transformer_v1/teacher
DEV=${DEVICE_DIR:-.work/device}
mkdir -p "$STAGE/parts" "$OUTDIR"
LOG=$OUTDIR/teacher-log.txt
exec > >(tee -a "$LOG") 2>&1

for d in "$DEV"/call*/; do
  [ -d "$d" ] || continue
  cp -f "$d"part-* "$d"manifest.sha256 "$STAGE/parts/" && echo "staged $(ls "$d" | tr '\n' ' ')from $d"
done
if [ ! -f "$STAGE/payload/.ready" ]; then
  [ -f "$STAGE/parts/manifest.sha256" ] || { echo "no part carried yet: carry .work/device/call1"; exit 3; }
  missing=""
  while read -r sha name; do
    [ "$name" = payload.tar.xz ] && continue
    if [ ! -f "$STAGE/parts/$name" ] || [ "$(sha256sum "$STAGE/parts/$name" | cut -d' ' -f1)" != "$sha" ]; then
      missing="$missing $name"
    fi
  done <"$STAGE/parts/manifest.sha256"
  if [ -n "$missing" ]; then
    echo "parts still missing:$missing (part-NN travels in .work/device/call<NN+1>); nothing trained"
    exit 0
  fi
  want=$(awk '$2 == "payload.tar.xz" {print $1}' "$STAGE/parts/manifest.sha256")
  got=$(cat "$STAGE"/parts/part-* | sha256sum | cut -d' ' -f1)
  [ "$want" = "$got" ] || { echo "reassembled payload does not match its sha256"; exit 4; }
  rm -rf "$STAGE/payload" "$STAGE/model"
  mkdir -p "$STAGE/payload"
  if command -v xz >/dev/null; then
    cat "$STAGE"/parts/part-* | xz -dc | tar -x -C "$STAGE/payload" || exit 5
  else  # no xz binary: Python's lzma reads the same stream
    cat "$STAGE"/parts/part-* | "$PY" -c 'import sys, tarfile; tarfile.open(fileobj=sys.stdin.buffer, mode="r|xz").extractall(sys.argv[1])' "$STAGE/payload" || exit 5
  fi
  "$PY" "$HERE/payload.py" weights-unpack "$STAGE/payload/model" "$STAGE/model" || exit 6
  touch "$STAGE/payload/.ready"
  echo "payload unpacked in $(( $(date +%s) - t0 )) s"
fi

nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || true
"$PY" -c 'import torch, transformers; print("torch", torch.__version__, "transformers", transformers.__version__, "cuda", torch.cuda.is_available())'
need=$MIN_SEED
for seed in $SEEDS; do
  left=$(( BUDGET - ($(date +%s) - t0) ))
  if [ "$left" -lt "$need" ]; then
    echo "seed $seed not started: $left s left of TEACHER_BUDGET_S, a seed needs about $need s"
    break
  fi
  s0=$(date +%s)
  echo "== seed $seed ($left s left)"
  PYTHONUNBUFFERED=1 "$PY" "$HERE/train_teacher.py" --model-dir "$STAGE/model" --data-dir "$STAGE/payload/data" \
    --out "$OUTDIR" --seed "$seed" --deadline-s "$left" ${TEACHER_ARGS:-} || { echo "seed $seed failed"; exit 7; }
  need=$(( ($(date +%s) - s0) * 11 / 10 ))
done
echo "gpu-step done in $(( $(date +%s) - t0 )) s; outputs: $(ls "$OUTDIR" | tr '\n' ' ')"
