/**
 * The batch summary chart: how many results per summary and per primary issue, as labelled
 * horizontal bars. The numbers are text beside each bar, so the chart reads without colour and
 * to a screen reader as two lists.
 */
import { PRIMARY_ISSUES, SUMMARIES, type ModerationResponse } from '@/lib/contracts/moderation';
import styles from './console.module.css';

function Bars({ title, counts, testId }: { title: string; counts: [string, number][]; testId: string }) {
  const max = Math.max(1, ...counts.map(([, n]) => n));
  const id = `${testId}-title`;
  return (
    <div className={styles.chartGroup}>
      <h3 id={id} className={styles.smallHeading}>
        {title}
      </h3>
      <ul aria-labelledby={id} className={styles.chartList} data-testid={testId}>
        {counts.map(([key, n]) => (
          <li key={key} data-testid="chart-bar" data-key={key} data-count={n}>
            <span className={styles.chartLabel}>{key.replace(/_/g, ' ')}</span>
            <span className={styles.chartTrack} aria-hidden="true">
              <span className={`${styles.chartFill} chart-${key}`} style={{ width: `${(100 * n) / max}%` }} />
            </span>
            <span className={styles.chartValue}>{n}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function BatchChart({ results }: { results: readonly ModerationResponse[] }) {
  const bySummary = SUMMARIES.map((s): [string, number] => [s, results.filter((r) => r.ensemble.summary === s).length]);
  const byIssue = PRIMARY_ISSUES.map((i): [string, number] => [i, results.filter((r) => r.ensemble.primary_issue === i).length]).filter(
    ([, n]) => n > 0,
  );
  return (
    <figure className={styles.chart} data-testid="batch-chart" aria-label={`Summary of ${results.length} results`}>
      <figcaption>
        <h2 className={styles.chartTitle}>Summary of {results.length} results</h2>
      </figcaption>
      <div className={styles.chartGroups}>
        <Bars title="By summary" counts={bySummary} testId="chart-summary" />
        <Bars title="By primary issue" counts={byIssue} testId="chart-issue" />
      </div>
    </figure>
  );
}
