/**
 * The one delimiter detector for CSV that people upload: the console's batch files
 * (lib/batch/read-batch-file.ts, from the first lines) and bulk job bodies (lib/jobs/read-job-csv.ts,
 * from the header line, the only one read before parsing starts).
 */
import { parse } from 'csv-parse/sync';

/** Lines read from the start of the text: enough to see a pattern, few enough to stay instant. */
const SAMPLE_LINES = 50;
const SAMPLE_CHARS = 64 * 1024;

/**
 * The candidate under which the first lines read as CSV most consistently: the largest share of
 * records with one same number of fields (more than one). Quotes are read strictly here, so a
 * delimiter that leaves a quote in the middle of a field (`a;b;"c,d"` split on commas) loses that
 * record; a tie goes to the wider split (`a|b|c,d` → `|`), then to the earlier candidate, which is
 * also the answer when no candidate splits anything (one column). Semicolons come from spreadsheets
 * in locales with a decimal comma, tabs from copies out of a spreadsheet.
 */
export function detectDelimiter<D extends string>(text: string, candidates: readonly [D, ...D[]]): D {
  const sample = text
    .slice(0, SAMPLE_CHARS)
    .split(/\r\n|\n|\r/)
    .slice(0, SAMPLE_LINES)
    .join('\n');
  let best = candidates[0];
  let bestScore = 0;
  let bestWidth = 1;
  for (const delimiter of candidates) {
    let skipped = 0;
    let widths: number[];
    try {
      const records: string[][] = parse(sample, {
        delimiter,
        bom: true,
        skip_empty_lines: true,
        relax_column_count: true,
        skip_records_with_error: true,
        on_skip: () => {
          skipped++;
          return undefined;
        },
      });
      widths = records.map((r) => r.length);
    } catch {
      continue;
    }
    const counts = new Map<number, number>();
    for (const w of widths) counts.set(w, (counts.get(w) ?? 0) + 1);
    let width = 1;
    let count = 0;
    for (const [w, n] of counts) if (n > count || (n === count && w > width)) [width, count] = [w, n];
    if (width < 2) continue;
    const score = count / (widths.length + skipped);
    if (score > bestScore || (score === bestScore && width > bestWidth)) [best, bestScore, bestWidth] = [delimiter, score, width];
  }
  return best;
}
