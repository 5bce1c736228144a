import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';

/** The instruction-set flags that change inference speed or results, as /proc/cpuinfo lists them (Linux). */
const FLAGS = ['avx512_vnni', 'avx512f', 'avx_vnni', 'avx2', 'fma'] as const;

/** The CPU flags among FLAGS this machine has, space-separated: every benchmark figure is printed beside them. */
export function cpuFlags(): string {
  const info = readFileSync('/proc/cpuinfo', 'utf8');
  return FLAGS.filter((f) => new RegExp(`\\b${f}\\b`).test(info)).join(' ');
}

/** The machine in one line: CPU model, core count and flags. */
export function machineLine(): string {
  return `${cpus()[0]?.model ?? 'unknown CPU'} x${cpus().length}, flags ${cpuFlags()}`;
}
