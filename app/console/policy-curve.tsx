/**
 * Precision and relative recall of one category against its threshold, over the decided items: two
 * lines on a 0–1 square, the threshold in force and the draft marked. The same points are in a
 * table under "Points" for screen readers and for exact values.
 */
import type { CategoryPolicy } from '@/lib/contracts/policy';
import styles from './console.module.css';

const W = 320;
const H = 180;
const PAD = 28;
const x = (t: number) => PAD + t * (W - 2 * PAD);
const y = (v: number) => H - PAD - v * (H - 2 * PAD);
const pct = (v: number | null) => (v === null ? '–' : `${Math.round(v * 100)} %`);

function line(points: CategoryPolicy['curve'], key: 'precision' | 'relative_recall'): string {
  return points
    .filter((p) => p[key] !== null)
    .map((p) => `${x(p.threshold).toFixed(1)},${y(p[key]!).toFixed(1)}`)
    .join(' ');
}

export function PolicyCurve({ category, draft }: { category: CategoryPolicy; draft?: number }) {
  const name = category.category.replace(/_/g, ' ');
  const m = category.measured;
  const summary = `${name}: at the threshold in force (${category.threshold}), precision ${pct(m.precision)} and relative recall ${pct(m.relative_recall)} over ${m.flagged} flagged decided items.`;
  return (
    <figure className={styles.policyCurve} data-testid={`policy-curve-${category.category}`}>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={summary}>
        <rect x={PAD} y={PAD} width={W - 2 * PAD} height={H - 2 * PAD} className={styles.curveFrame} />
        {[0, 0.5, 1].map((t) => (
          <text key={`x${t}`} x={x(t)} y={H - 8} textAnchor="middle" className={styles.curveAxis}>
            {t}
          </text>
        ))}
        {[0, 0.5, 1].map((v) => (
          <text key={`y${v}`} x={PAD - 4} y={y(v) + 4} textAnchor="end" className={styles.curveAxis}>
            {v}
          </text>
        ))}
        <polyline points={line(category.curve, 'precision')} className={styles.curvePrecision} />
        <polyline points={line(category.curve, 'relative_recall')} className={styles.curveRecall} />
        <line x1={x(category.threshold)} x2={x(category.threshold)} y1={PAD} y2={H - PAD} className={styles.curveCurrent} />
        {draft !== undefined && draft !== category.threshold && (
          <line x1={x(draft)} x2={x(draft)} y1={PAD} y2={H - PAD} className={styles.curveDraft} data-testid="policy-curve-draft" />
        )}
      </svg>
      <figcaption className={styles.curveLegend}>
        <span className={styles.legendPrecision}>precision</span> <span className={styles.legendRecall}>relative recall</span>{' '}
        <span className={styles.legendCurrent}>in force</span>
        {draft !== undefined && draft !== category.threshold && <span className={styles.legendDraft}>proposed</span>} (threshold on the
        horizontal axis)
      </figcaption>
      <details>
        <summary>Points</summary>
        <table className={styles.curveTable}>
          <caption className="visually-hidden">Precision and relative recall of {name} by threshold</caption>
          <thead>
            <tr>
              <th scope="col">Threshold</th>
              <th scope="col">Flagged</th>
              <th scope="col">Precision</th>
              <th scope="col">Relative recall</th>
            </tr>
          </thead>
          <tbody>
            {category.curve.map((p) => (
              <tr key={p.threshold}>
                <td>{p.threshold.toFixed(2)}</td>
                <td>{p.flagged}</td>
                <td>{pct(p.precision)}</td>
                <td>{pct(p.relative_recall)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
