/** The command line and the JSON file of `npm run eval:verdicts` (eval-verdicts.ts). */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Target } from './metric-row';
import type { ModelInfo } from './quality-report';
import type { ReportedVerdict } from './verdict-evaluation';

export interface VerdictArgs {
  /** MODELS_DIR for this run. */
  models?: string;
  /** TOXICITY_MODEL_DIR for this run. */
  toxicity?: string;
  out?: string;
  against?: string;
  /** The shared data folder (for DynaHate's rows). */
  data?: string;
  write: boolean;
  showErrors: boolean;
}

export const VERDICT_USAGE =
  'usage: npm run eval:verdicts -- [--models DIR] [--toxicity DIR] [--out FILE] [--against FILE] [--data DIR] [--no-write] [--show-errors]';

const VALUE_OPTIONS = { '--models': 'models', '--toxicity': 'toxicity', '--out': 'out', '--against': 'against', '--data': 'data' } as const;

/** Parses the options; an unknown option, a missing value or a folder that is not there is an error naming it. */
export function parseVerdictArgs(argv: readonly string[]): VerdictArgs {
  const args: VerdictArgs = { write: true, showErrors: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--no-write') args.write = false;
    else if (a === '--show-errors') args.showErrors = true;
    else {
      const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
      const key = VALUE_OPTIONS[flag as keyof typeof VALUE_OPTIONS];
      if (!key) throw new Error(`unknown option ${a}; ${VERDICT_USAGE}`);
      const value = inline ?? argv[++i];
      if (value === undefined || value === '' || value.startsWith('--')) throw new Error(`${flag} needs a value; ${VERDICT_USAGE}`);
      args[key] = resolve(value);
    }
  }
  for (const key of ['models', 'toxicity'] as const) {
    const dir = args[key];
    if (dir !== undefined && !(existsSync(dir) && statSync(dir).isDirectory())) throw new Error(`--${key} ${dir}: no such folder`);
  }
  return args;
}

export interface VerdictMetricsFile {
  command: string;
  date: string;
  commit: string;
  /** The working tree had changes. */
  dirty: boolean;
  seconds: number;
  /** CPU model, cores and the instruction-set flags that change inference. */
  machine: string;
  models_dir: string;
  toxicity_dir: string;
  models: ModelInfo[];
  texts_scored: number;
  /** Every row's value by its key, rounded to 4 decimals. */
  metrics: Record<string, number | null>;
  rows: { key: string; metric: string; value: number | null; target: Target | null; met: boolean | null; n: number | null }[];
  /** Per category: the primary issues of the wrong verdicts ("missed" for a harmful case let through). */
  errors_by_category: Record<string, Record<string, number>>;
  reported_failures: ReportedVerdict[];
}
