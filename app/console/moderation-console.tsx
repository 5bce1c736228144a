'use client';
/**
 * The moderation console: six tabs (Moderate, Batch, Jobs, Review queue, Audit log, Policy) beside the
 * server status. One browser-inference Worker serves the live preview for the whole page; one
 * JobsProvider holds the bulk jobs the Batch and Jobs tabs both show.
 */
import { useCallback, useRef, useState, type KeyboardEvent } from 'react';
import { AuditTab } from './audit-tab';
import { BatchTab } from './batch-tab';
import { JobsProvider } from './jobs-context';
import { JobsTab } from './jobs-tab';
import { ModerateTab } from './moderate-tab';
import { PolicyTab } from './policy-tab';
import { ReviewTab } from './review-tab';
import { StatusPanel } from './status-panel';
import styles from './console.module.css';

const TABS = [
  { id: 'moderate', label: 'Moderate' },
  { id: 'batch', label: 'Batch' },
  { id: 'jobs', label: 'Jobs' },
  { id: 'reviews', label: 'Review queue' },
  { id: 'audit', label: 'Audit log' },
  { id: 'policy', label: 'Policy' },
] as const;
type TabId = (typeof TABS)[number]['id'];

export function ModerationConsole() {
  const [tab, setTab] = useState<TabId>('moderate');
  const [auditVersion, setAuditVersion] = useState(0);
  const tabRefs = useRef<Record<string, HTMLButtonElement | null>>({});
  const showJobs = useCallback(() => {
    setTab('jobs');
    tabRefs.current.jobs?.focus();
  }, []);

  // WAI-ARIA tabs: arrows move between tabs, Home/End jump, focus follows selection.
  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    const i = TABS.findIndex((t) => t.id === tab);
    let next = i;
    if (e.key === 'ArrowRight') next = (i + 1) % TABS.length;
    else if (e.key === 'ArrowLeft') next = (i - 1 + TABS.length) % TABS.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = TABS.length - 1;
    else return;
    e.preventDefault();
    const id = TABS[next]!.id;
    setTab(id);
    tabRefs.current[id]?.focus();
  }

  return (
    <JobsProvider showJobs={showJobs}>
      <main className={styles.layout}>
        <div className={styles.mainColumn}>
          <h1>Moderation console</h1>
          <div role="tablist" aria-label="Console sections" className={styles.tabs} onKeyDown={onKeyDown}>
            {TABS.map((t) => (
              <button
                key={t.id}
                ref={(el) => {
                  tabRefs.current[t.id] = el;
                }}
                type="button"
                role="tab"
                id={`tab-${t.id}`}
                aria-selected={tab === t.id}
                aria-controls={`panel-${t.id}`}
                tabIndex={tab === t.id ? 0 : -1}
                className={styles.tab}
                data-testid={`tab-${t.id}`}
                onClick={() => setTab(t.id)}
              >
                {t.label}
              </button>
            ))}
          </div>
          {/* Panels stay mounted (hidden) so a running batch or a typed text survives a tab switch. */}
          <section role="tabpanel" id="panel-moderate" aria-labelledby="tab-moderate" hidden={tab !== 'moderate'}>
            <ModerateTab />
          </section>
          <section role="tabpanel" id="panel-batch" aria-labelledby="tab-batch" hidden={tab !== 'batch'}>
            <BatchTab />
          </section>
          <section role="tabpanel" id="panel-jobs" aria-labelledby="tab-jobs" hidden={tab !== 'jobs'}>
            <JobsTab active={tab === 'jobs'} />
          </section>
          <section role="tabpanel" id="panel-reviews" aria-labelledby="tab-reviews" hidden={tab !== 'reviews'}>
            <ReviewTab active={tab === 'reviews'} onDecided={() => setAuditVersion((v) => v + 1)} />
          </section>
          <section role="tabpanel" id="panel-audit" aria-labelledby="tab-audit" hidden={tab !== 'audit'}>
            <AuditTab active={tab === 'audit'} version={auditVersion} />
          </section>
          <section role="tabpanel" id="panel-policy" aria-labelledby="tab-policy" hidden={tab !== 'policy'}>
            <PolicyTab active={tab === 'policy'} />
          </section>
        </div>
        <aside className={styles.side}>
          <StatusPanel />
        </aside>
      </main>
    </JobsProvider>
  );
}
