import { describe, expect, it } from 'vitest';
import { targetMet, type Section } from '@/scripts/eval-text/metric-row';
import { formatValue, historyEntry, renderPage } from '@/scripts/eval-text/quality-report';

const section = (auc: number | null): Section => ({
  id: 'jigsaw',
  title: 'Jigsaw',
  intro: 'rows',
  rows: [
    { key: 'jigsaw.mean_roc_auc', metric: 'mean ROC-AUC', value: auc, target: { op: '>=', value: 0.975 }, headline: true },
    { key: 'identity.flag_rate', metric: 'flag rate', value: 0.04, target: { op: '<=', value: 0.03 }, percent: true, headline: true },
  ],
});
const meta = (date: string, commit: string) => ({
  date,
  commit,
  dirty: false,
  seconds: 10,
  models: [{ version: 'toxic_transformer_v1', fingerprint: 'abcdef123456' }],
});

describe('targetMet', () => {
  it('compares with the target and fails a missing value', () => {
    expect(targetMet({ key: 'k', metric: 'm', value: 0.98, target: { op: '>=', value: 0.975 } })).toBe(true);
    expect(targetMet({ key: 'k', metric: 'm', value: 0.05, target: { op: '<=', value: 0.03 } })).toBe(false);
    expect(targetMet({ key: 'k', metric: 'm', value: 0, target: { op: '>', value: 0 } })).toBe(false);
    expect(targetMet({ key: 'k', metric: 'm', value: null, target: { op: '>=', value: 0 } })).toBe(false);
    expect(targetMet({ key: 'k', metric: 'm', value: 0.5 })).toBeNull();
  });
});

describe('renderPage', () => {
  it('shows the current values with targets, and one history row per run so a regression is visible', () => {
    const old = historyEntry(meta('2026-11-01T10:00:00.000Z', 'aaaa111111'), [section(0.981)]);
    const now = historyEntry(meta('2026-11-23T10:00:00.000Z', 'bbbb222222'), [section(0.962)]);
    const page = renderPage({ current: now, history: [old, now], sections: [section(0.962)], command: 'npm run eval:text' });
    expect(page).toContain('| mean ROC-AUC | 0.962 | ≥ 0.975 | **no** |');
    expect(page).toContain('| flag rate | 4.0 % | ≤ 3.0 % | **no** |');
    expect(page).toMatch(/\| 2026-11-01 10:00 \| `aaaa111111` \| abcdef12 \| 0\.981 \| 4\.0 % \|/);
    expect(page).toMatch(/\| 2026-11-23 10:00 \| `bbbb222222` \| abcdef12 \| 0\.962 \| 4\.0 % \|/);
    expect(page).toContain('2 of 2 targeted rows miss their target');
  });

  it('rounds history values and keeps an unknown value as n/a', () => {
    const e = historyEntry(meta('d', 'c'), [section(null)]);
    expect(e.metrics['jigsaw.mean_roc_auc']).toBeNull();
    expect(historyEntry(meta('d', 'c'), [section(0.123456)]).metrics['jigsaw.mean_roc_auc']).toBe(0.1235);
    expect(formatValue(null)).toBe('n/a');
    expect(formatValue(0.5, true)).toBe('50.0 %');
  });
});
