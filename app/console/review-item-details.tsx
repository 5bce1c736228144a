'use client';
/**
 * "Why flagged, and history" on a review item (docs/decisions/171-triage-view.md): what each model
 * saw in plain words, and the item's history from the audit log. Opening it asks the card for the
 * item's explanation (/api/v1/reviews/{id}/explain), which then marks what decided the verdict in
 * the card's own text (review-text.tsx: the text is not shown a second time, docs/decisions/207),
 * and fetches the history (/api/v1/reviews/audit?review_id=).
 */
import { useState } from 'react';
import type { AuditEntry, ReviewExplanation, ReviewItem } from '@/lib/contracts/reviews';
import { itemHistory } from '@/lib/browser/item-history';
import { decisionSentence, marksFor, ruleWords, sexismReading, type Phrase } from '@/lib/browser/plain-explanation';
import { api } from '@/lib/browser/vigil-api';
import { ErrorAlert } from './error-alert';
import { LanguageNote } from './verdict-view';
import styles from './console.module.css';

const when = (iso: string) => new Date(iso).toLocaleString();

function PhraseList({ title, phrases, testId }: { title: string; phrases: Phrase[]; testId: string }) {
  if (phrases.length === 0) return null;
  return (
    <p className={styles.plainLine}>
      {title}{' '}
      {phrases.slice(0, 6).map((p, i) => (
        <span key={p.phrase} data-testid={testId}>
          {i > 0 && ', '}“{p.phrase}”
        </span>
      ))}
      .
    </p>
  );
}

function Explanation({ text, data }: { text: string; data: ReviewExplanation }) {
  const e = data.explanations;
  const sexism = sexismReading(text, e.sexism);
  const ruleTerms = [...new Set(e.rules.map((r) => (r.mention ? `${ruleWords(r.flag)} (mentioned, not used)` : ruleWords(r.flag))))];
  const rulesMarked = marksFor(text, e).some((m) => m.kind === 'rule');
  return (
    <>
      {e.decision && (
        <p className={styles.plainLine} data-testid="decided-by" data-model={e.decision.model}>
          <strong>Decided by: </strong>
          {decisionSentence(e.decision)}
        </p>
      )}
      <p className={styles.plainLine} data-testid="rules-plain">
        <strong>Word lists and patterns: </strong>
        {ruleTerms.length > 0 ? `matched ${ruleTerms.join(', ')}${rulesMarked ? ' (marked in the text)' : ''}.` : 'nothing matched.'}
      </p>
      <div data-testid="sexism-plain">
        <p className={styles.plainLine}>
          <strong>Sexism model: </strong>
          {sexism.towards.length + sexism.against.length === 0 && sexism.whole.length === 0 && 'no words weighed.'}
        </p>
        <PhraseList
          title={`Words that pushed it towards sexist${e.decision?.issue === 'sexism' ? ' (underlined in the text)' : ''}:`}
          phrases={sexism.towards}
          testId="sexism-phrase"
        />
        <PhraseList title="Words that pushed it away:" phrases={sexism.against} testId="sexism-phrase-against" />
        {sexism.whole.length > 0 && <p className={styles.plainLine}>It also weighed {sexism.whole.join('; ')}.</p>}
      </div>
      {e.language && <LanguageNote language={e.language} />}
    </>
  );
}

function History({ item, entries }: { item: ReviewItem; entries: AuditEntry[] }) {
  return (
    <div>
      <p className={styles.plainLine}>
        <strong>History</strong>
      </p>
      <ol className={styles.history} data-testid="review-history">
        {itemHistory(item, entries).map((l) => (
          <li key={l.key} data-testid="review-history-line" data-action={l.action}>
            <time dateTime={l.at}>{when(l.at)}</time>: {l.what}
            {l.by && <> by {l.by}</>}
            {l.reason && <> · reason: {l.reason}</>}
            {l.note && <> · note: “{l.note}”</>}
          </li>
        ))}
      </ol>
    </div>
  );
}

interface ReviewItemDetailsProps {
  item: ReviewItem;
  /** The item's explanation, once the card has it. */
  why: ReviewExplanation | undefined;
  whyError: unknown;
  /** Asks the card for the explanation. */
  onOpen: () => void;
}

export function ReviewItemDetails({ item, why, whyError, onOpen }: ReviewItemDetailsProps) {
  const [open, setOpen] = useState(false);
  const [history, setHistory] = useState<AuditEntry[] | undefined>();
  const [historyError, setHistoryError] = useState<unknown>();
  const error = historyError ?? whyError;
  const panelId = `why-${item.review_id}`;
  async function toggle() {
    const next = !open;
    setOpen(next);
    if (!next) return;
    onOpen();
    setHistoryError(undefined);
    try {
      setHistory((await api.audit(new URLSearchParams({ review_id: item.review_id, limit: '100' }))).entries);
    } catch (err) {
      setHistoryError(err);
    }
  }
  return (
    <div className={styles.why}>
      <button
        type="button"
        className="secondary"
        aria-expanded={open}
        aria-controls={panelId}
        data-testid="review-why"
        onClick={() => void toggle()}
      >
        Why flagged, and history
      </button>
      {open && (
        <div id={panelId} data-testid="review-why-panel" className={styles.whyPanel}>
          {error !== undefined && <ErrorAlert error={error} testId="review-why-error" />}
          {(!history || (!why && item.text !== null)) && error === undefined && <p className="muted">Loading…</p>}
          {why && item.text !== null && <Explanation text={item.text} data={why} />}
          {history && <History item={item} entries={history} />}
        </div>
      )}
    </div>
  );
}
