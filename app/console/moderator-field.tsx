'use client';
/**
 * Who decisions are recorded against: the signed-in key with API_KEYS (shown, not editable), else
 * the typed name, remembered in localStorage. `onChange` gets the name in effect.
 */
import { useEffect, useState } from 'react';
import { DEFAULT_MODERATOR } from '@/lib/contracts/reviews';
import { api } from '@/lib/browser/vigil-api';

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

  return (
    <div className="field-row">
      {signedInAs ? (
        <p className="muted" data-testid="moderator-identity">
          Decisions are recorded as <strong>{signedInAs}</strong>, the key you signed in with.
        </p>
      ) : (
        <div className="field">
          <label htmlFor="moderator-name">Moderator name</label>
          <input
            id="moderator-name"
            data-testid="moderator-name"
            value={moderator}
            maxLength={100}
            onChange={(e) => {
              setModerator(e.target.value);
              window.localStorage.setItem(MODERATOR_KEY, e.target.value);
            }}
            aria-describedby="moderator-hint"
          />
          <span id="moderator-hint" className="hint">
            Recorded with each decision. With API keys configured, the signed-in key is recorded instead.
          </span>
        </div>
      )}
    </div>
  );
}
