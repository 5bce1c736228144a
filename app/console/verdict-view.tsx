/** One verdict: the ensemble badge, per-attribute score bars, rule flags and highlighted rule matches. */
import type { ModerationResponse } from '@/lib/contracts/moderation';
import styles from './console.module.css';

const pct = (x: number) => `${Math.round(x * 100)}%`;

function ScoreBar({ label, value }: { label: string; value: number }) {
  const level = value >= 0.7 ? styles.barHigh : value >= 0.5 ? styles.barMid : styles.barLow;
  return (
    <div className={styles.barRow}>
      <span className={styles.barLabel}>{label}</span>
      {/* biome-ignore lint/a11y/useSemanticElements: a bar coloured by level (barHigh/Mid/Low); <meter> cannot be styled the same way across browsers. */}
      <span
        className={styles.barTrack}
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={1}
        aria-valuenow={value}
        aria-valuetext={pct(value)}
      >
        <span className={`${styles.barFill} ${level}`} style={{ width: pct(value) }} />
      </span>
      <span className={styles.barValue}>{value.toFixed(2)}</span>
    </div>
  );
}

export function EnsembleBadge({ ensemble }: { ensemble: ModerationResponse['ensemble'] }) {
  return (
    <span className={`badge badge-${ensemble.summary}`} data-testid="ensemble-badge" data-summary={ensemble.summary}>
      {ensemble.summary.replace(/_/g, ' ')} · {ensemble.primary_issue.replace(/_/g, ' ')} · {ensemble.severity}
    </span>
  );
}

type Explanations = NonNullable<ModerationResponse['explanations']>;

/** The text with rule matches marked; spans index the normalised text, which equals the input for plain text. */
export function Highlighted({ text, rules }: { text: string; rules: Explanations['rules'] }) {
  const result = { text };
  const spans = [...rules].filter((s) => s.start >= 0 && s.end <= result.text.length && s.end > s.start).sort((a, b) => a.start - b.start);
  if (spans.length === 0) return null;
  const parts: React.ReactNode[] = [];
  let at = 0;
  for (const s of spans) {
    if (s.start < at) continue;
    parts.push(result.text.slice(at, s.start));
    parts.push(
      <mark key={`${s.start}-${s.end}`} title={s.flag} data-testid="rule-match">
        {result.text.slice(s.start, s.end)}
        <span className="visually-hidden"> (rule: {s.flag})</span>
      </mark>,
    );
    at = s.end;
  }
  parts.push(result.text.slice(at));
  return (
    <p className={styles.highlighted}>
      <span className={styles.smallHeading}>Rule matches: </span>
      {parts}
    </p>
  );
}

export function VerdictView({ result, testId }: { result: ModerationResponse; testId: string }) {
  const { sexism, toxicity, rules } = result.label;
  const flags = Object.entries(rules)
    .filter(([k, v]) => k !== 'model_version' && v === true)
    .map(([k]) => k);
  return (
    <div data-testid={testId} data-score={result.ensemble.score} data-summary={result.ensemble.summary}>
      <p className={styles.verdictHead}>
        <EnsembleBadge ensemble={result.ensemble} /> <span className={styles.score}>score {result.ensemble.score.toFixed(2)}</span>
      </p>
      <div className={styles.bars}>
        <ScoreBar label="Sexism" value={sexism.score} />
        <ScoreBar label="Toxicity" value={toxicity.overall} />
        <ScoreBar label="Insult" value={toxicity.insult} />
        <ScoreBar label="Threat" value={toxicity.threat} />
        <ScoreBar label="Identity attack" value={toxicity.identity_attack} />
        <ScoreBar label="Profanity" value={toxicity.profanity} />
      </div>
      <p className={styles.flags}>
        <span className={styles.smallHeading}>Rules: </span>
        {flags.length === 0 ? (
          <span className="muted">no rule fired</span>
        ) : (
          flags.map((f) => (
            <span key={f} className="badge badge-high">
              {f.replace(/_/g, ' ')}
            </span>
          ))
        )}
      </p>
      <Highlighted text={result.text} rules={result.explanations?.rules ?? []} />
      {result.explanations?.decision && <DecisionLine decision={result.explanations.decision} />}
      {result.explanations?.language && <LanguageNote language={result.explanations.language} />}
    </div>
  );
}

const LANGUAGE_NAMES: Record<string, string> = {
  spa: 'Spanish',
  deu: 'German',
  fra: 'French',
  por: 'Portuguese',
  ita: 'Italian',
  nld: 'Dutch',
  pol: 'Polish',
  tur: 'Turkish',
  rus: 'Russian',
  ukr: 'Ukrainian',
  arb: 'Arabic',
  cmn: 'Chinese',
  jpn: 'Japanese',
  kor: 'Korean',
  hin: 'Hindi',
  ind: 'Indonesian',
  swe: 'Swedish',
  ron: 'Romanian',
  ces: 'Czech',
  hun: 'Hungarian',
  ell: 'Greek',
};

export const languageName = (code: string) => LANGUAGE_NAMES[code] ?? `language code ${code}`;

/** Says when a text is not English: the models were trained on English and their verdict on it is unreliable. */
export function LanguageNote({ language }: { language: NonNullable<Explanations['language']> }) {
  if (!language.non_english) return null;
  return (
    <p className="alert alert-warn" data-testid="language-note" data-language={language.code}>
      This text looks like <strong>{languageName(language.code)}</strong>, not English. The models read English, so this verdict may miss
      harm in it: have a person check it.
    </p>
  );
}

/** Which model (or rule set) and threshold decided the summary. */
export function DecisionLine({ decision }: { decision: NonNullable<Explanations['decision']> }) {
  const issue = decision.issue.replace(/_/g, ' ');
  return (
    <p className={styles.decisionLine} data-testid="decided-by" data-model={decision.model}>
      <span className={styles.smallHeading}>Decided by: </span>
      {decision.probability === null || decision.threshold === null ? (
        <>
          a <code>{decision.model}</code> rule hit ({issue}), fixed risk {decision.risk.toFixed(2)}
        </>
      ) : (
        <>
          <code>{decision.model}</code>, {issue} probability {decision.probability.toFixed(2)} against its threshold{' '}
          {decision.threshold.toFixed(2)} (risk {decision.risk.toFixed(2)}; 0.50 = at threshold)
        </>
      )}
    </p>
  );
}

/** The sexism model's strongest n-grams for this text (positive weights push towards sexist). */
export function NgramList({ ngrams }: { ngrams: Explanations['sexism'] }) {
  if (ngrams.length === 0) return <p className="muted">No sexism n-grams contributed.</p>;
  return (
    <div>
      <span className={styles.smallHeading}>Sexism n-grams: </span>
      <ul className={styles.ngrams} data-testid="sexism-ngrams">
        {ngrams.map((g) => (
          <li key={g.feature} data-testid="sexism-ngram">
            <code>{g.feature}</code> {g.weight >= 0 ? '+' : '−'}
            {Math.abs(g.weight).toFixed(2)}
          </li>
        ))}
      </ul>
    </div>
  );
}
