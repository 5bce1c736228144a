'use client';
/**
 * Everyone in the memory bank, with a search by name over the loaded list (the page loads every
 * page of GET /api/v1/persons, so filtering here is exact). Focus goes to the outcome after a delete.
 */
import Link from 'next/link';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Person } from '@/lib/contracts/persons';
import { api } from '@/lib/browser/vigil-api';
import { explainError, type ExplainedError } from '@/lib/browser/explain-error';
import { filterPeople } from '@/lib/browser/filter-people';
import { ErrorNotice } from '@/app/components/error-notice';
import { PersonCard } from './person-card';
import styles from './people.module.css';

const PAGE = 100;

export function PeopleList() {
  const [people, setPeople] = useState<Person[] | undefined>();
  const [total, setTotal] = useState(0);
  const [query, setQuery] = useState('');
  const [error, setError] = useState<ExplainedError | undefined>();
  const [message, setMessage] = useState('');
  const messageRef = useRef<HTMLParagraphElement>(null);
  const [focusMessage, setFocusMessage] = useState(0);
  useEffect(() => {
    // After a delete the focused button is gone: move to the message that says what happened.
    if (focusMessage) messageRef.current?.focus();
  }, [focusMessage]);

  const load = useCallback(async () => {
    setError(undefined);
    try {
      const all: Person[] = [];
      let t = 0;
      for (let offset = 0; ; offset += PAGE) {
        const page = await api.listPersons(PAGE, offset);
        all.push(...page.persons);
        t = page.total;
        if (all.length >= t || page.persons.length === 0) break;
      }
      setPeople(all);
      setTotal(t);
    } catch (err) {
      setError(explainError(err));
      setPeople((p) => p ?? []);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const shown = people ? filterPeople(people, query) : undefined;
  const searching = query.trim() !== '';

  return (
    <main>
      <div className={styles.head}>
        <h1>People</h1>
        <Link className="button" href="/register">
          Register someone
        </Link>
      </div>
      {people !== undefined && people.length > 0 && (
        <search className={styles.search}>
          <label htmlFor="people-search">Search by name</label>
          <input
            id="people-search"
            type="search"
            data-testid="people-search"
            value={query}
            autoComplete="off"
            onChange={(e) => setQuery(e.target.value)}
          />
        </search>
      )}
      <div aria-live="polite">
        {message && (
          <p className="alert alert-ok" data-testid="people-message" tabIndex={-1} ref={messageRef}>
            {message}
          </p>
        )}
        {error && (
          <ErrorNotice error={error}>
            <button type="button" className="secondary" onClick={() => void load()}>
              Retry
            </button>
          </ErrorNotice>
        )}
        <p className="muted" data-testid="people-count" data-loaded={people !== undefined} data-shown={shown?.length ?? 0}>
          {people === undefined
            ? 'Loading…'
            : `${total} ${total === 1 ? 'person' : 'people'} registered.${searching ? ` ${shown!.length} match “${query.trim()}”.` : ''}`}
        </p>
      </div>
      {people && people.length === 0 && !error && (
        <p>
          Nobody is registered yet. <Link href="/register">Register someone</Link>.
        </p>
      )}
      {searching && shown?.length === 0 && (
        <p data-testid="people-no-match">
          Nobody&apos;s name matches “{query.trim()}”.{' '}
          <button type="button" className="secondary" onClick={() => setQuery('')}>
            Clear the search
          </button>
        </p>
      )}
      <ul className={styles.grid} data-testid="people-list">
        {shown?.map((p) => (
          <PersonCard
            key={p.person_id}
            person={p}
            onChanged={(np) => setPeople((ps) => ps?.map((x) => (x.person_id === np.person_id ? np : x)))}
            onDeleted={(id, name) => {
              setPeople((ps) => ps?.filter((x) => x.person_id !== id));
              setTotal((t) => t - 1);
              setMessage(`${name} was deleted.`);
              setFocusMessage((n) => n + 1);
            }}
          />
        ))}
      </ul>
    </main>
  );
}
