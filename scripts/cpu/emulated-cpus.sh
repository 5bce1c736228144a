#!/usr/bin/env bash
# Runs the toxicity reproduce check (reproduce-fixture.mjs) on this CPU and under QEMU's user-mode
# emulation of other x86 CPU models, so that a score that depends on the instruction set shows up
# on one machine. QEMU's TCG offers CPU models up to AVX2 (no AVX-512): the models below range from
# SSE4.2 only to AVX2, so onnxruntime picks different float kernels on each.
#   bash scripts/cpu/emulated-cpus.sh [model folder]      (installs qemu-user from Debian when absent)
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:-models/toxic_transformer_v1}
if ! command -v qemu-x86_64 >/dev/null; then
  apt-get update -qq && apt-get install -y -qq qemu-user >/dev/null
fi
echo "host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); flags: $(grep -o -w -E 'avx512_vnni|avx512f|avx2|fma|avx|sse4_2' /proc/cpuinfo | sort -u | xargs)"
status=0
echo -n "native: " && node scripts/cpu/reproduce-fixture.mjs "$dir" || status=1
for cpu in Westmere SandyBridge Haswell; do
  # QEMU warns once per thread about CPUID bits TCG cannot emulate (x2apic, tsc-deadline, ...): noise here.
  echo -n "qemu -cpu $cpu: " && qemu-x86_64 -cpu "$cpu" "$(command -v node)" scripts/cpu/reproduce-fixture.mjs "$dir" 2> >(grep -v "TCG doesn't support" >&2) || status=1
done
exit $status
