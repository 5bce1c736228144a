'use client';
/** The message after a registration: who was registered (or got the photos), how many photos, and what next. */
import Link from 'next/link';
import type { Person } from '@/lib/contracts/persons';
import { RECOMMENDED_PHOTOS } from '@/lib/browser/register-with-photos';

/** What the last submit did: a new person, or photos added to the person the face matched. */
export type Outcome = { person: Person; mode: 'registered' | 'added'; tried: number };

export function RegistrationResult({ person, mode, tried, added, onAnother }: Outcome & { added: number; onAnother: () => void }) {
  return (
    <div
      className={`alert ${mode === 'registered' && person.embedding_count < tried ? 'alert-warn' : 'alert-ok'}`}
      data-testid="register-result"
      data-person-id={person.person_id}
      tabIndex={-1}
    >
      {mode === 'registered' ? (
        <p>
          Registered <strong>{person.name}</strong>
          {person.relationship && <> ({person.relationship})</>} with {person.embedding_count} photo
          {person.embedding_count === 1 ? '' : 's'}.
        </p>
      ) : (
        <p>
          Added {added} of {tried} photo{tried === 1 ? '' : 's'} to <strong>{person.name}</strong>, who now has {person.embedding_count}{' '}
          photo{person.embedding_count === 1 ? '' : 's'}.
        </p>
      )}
      {person.embedding_count < RECOMMENDED_PHOTOS && (
        <p data-testid="register-short">
          With {person.embedding_count} photo{person.embedding_count === 1 ? '' : 's'}, recognition may miss {person.name}:{' '}
          {RECOMMENDED_PHOTOS} or more, each a little different (head turned slightly, other light), work better. Add more on the{' '}
          <Link href={`/people#person-${person.person_id}`}>People page</Link> with “Add photos”.
        </p>
      )}
      <p>
        <Link href="/people">See everyone registered</Link> ·{' '}
        <button type="button" className="secondary" data-testid="register-another" onClick={onAnother}>
          Register someone else
        </button>
      </p>
    </div>
  );
}
