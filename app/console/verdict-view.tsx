/** One verdict: the ensemble badge, per-attribute score bars, rule flags and the marked text, in words. */
import type { ModerationResponse } from '@/lib/contracts/moderation';
import { decisionSentence, marksFor, ruleWords } from '@/lib/browser/plain-explanation';
import { MarkedText } from './marked-text';
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

/** The text with what decided the verdict marked (the deciding sentence first), scrolled to it; nothing when nothing decided. */
function MarkedVerdictText({ result, scrollPage }: { result: ModerationResponse; scrollPage: boolean }) {
  const e = result.explanations;
  if (!e) return null;
  const marks = marksFor(result.text, e);
  if (marks.length === 0) return null;
  return (
    <div className={styles.highlighted}>
      <span className={styles.smallHeading}>Marked in the text: </span>
      <MarkedText text={result.text} marks={marks} testId="verdict-marked-text" scrollPage={scrollPage} />
    </div>
  );
}

/**
 * `scrollPage`: the page, not only the text's box, moves to the deciding sentence (for a verdict the
 * moderator asked for; the preview redraws while they type and leaves the page where it is).
 */
export function VerdictView({ result, testId, scrollPage = false }: { result: ModerationResponse; testId: string; scrollPage?: boolean }) {
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
              {ruleWords(f)}
            </span>
          ))
        )}
      </p>
      <MarkedVerdictText result={result} scrollPage={scrollPage} />
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

/** Which model (or rule set) and threshold decided the summary, in words. */
export function DecisionLine({ decision }: { decision: NonNullable<Explanations['decision']> }) {
  return (
    <p className={styles.decisionLine} data-testid="decided-by" data-model={decision.model}>
      <span className={styles.smallHeading}>Decided by: </span>
      {decisionSentence(decision)}
    </p>
  );
}
