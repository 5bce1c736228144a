'use client';
/**
 * Who decisions are recorded against: the signed-in key with API_KEYS (shown, not editable), else
 * the typed name, remembered in localStorage. `onChange` gets the name in effect.
 */
import { useEffect, useState } from 'react';
import { DEFAULT_MODERATOR } from '@/lib/contracts/reviews';
import { api } from '@/lib/browser/vigil-api';
import styles from './console.module.css';

const MODERATOR_KEY = 'vigil.moderator';

export function ModeratorField({ onChange }: { onChange: (who: string) => void }) {
  const [moderator, setModerator] = useState(DEFAULT_MODERATOR);
  const [signedInAs, setSignedInAs] = useState<string | null>(null);

  useEffect(() => {
    const saved = window.localStorage.getItem(MODERATOR_KEY);
    if (saved) setModerator(saved);
    api.session().then(
      (s) => setSignedInAs(s.auth_required ? (s.moderator ?? null) : null),
      () => setSignedInAs(null),
    );
  }, []);

  useEffect(() => {
    onChange(signedInAs ?? (moderator.trim() || DEFAULT_MODERATOR));
  }, [signedInAs, moderator, onChange]);

  // One line above the queue (label, box, hint side by side), so the first item stays on the first screen.
  return signedInAs ? (
    <p className="muted" data-testid="moderator-identity">
      Decisions are recorded as <strong>{signedInAs}</strong>, the key you signed in with.
    </p>
  ) : (
    <div className={styles.inlineField}>
      <label htmlFor="moderator-name">Moderator name</label>
      <input
        id="moderator-name"
        data-testid="moderator-name"
        value={moderator}
        maxLength={100}
        size={14}
        onChange={(e) => {
          setModerator(e.target.value);
          window.localStorage.setItem(MODERATOR_KEY, e.target.value);
        }}
        aria-describedby="moderator-hint"
      />
      <span id="moderator-hint" className={`hint ${styles.wideOnly}`}>
        Recorded with each decision.
      </span>
    </div>
  );
}
