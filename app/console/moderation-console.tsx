'use client';
/**
 * The moderation console: six tabs (Moderate, Batch, Jobs, Review queue, Audit log, Policy) beside the
 * server status. Each tab has its own address (`/console/review`, …; lib/browser/console-route.ts),
 * kept in the history as tabs change, and `/console` reopens the tab last used in this browser.
 * One browser-inference Worker serves the live preview for the whole page; one JobsProvider holds
 * the bulk jobs the Batch, Jobs and Review tabs show.
 */
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import {
  CONSOLE_TABS,
  consoleHref,
  isConsoleTab,
  LAST_TAB_KEY,
  parseConsoleRoute,
  type ConsoleTab,
  type ReviewRoute,
} from '@/lib/browser/console-route';
import { AuditTab } from './audit-tab';
import { BatchTab } from './batch-tab';
import { ConsoleNavProvider } from './console-nav';
import { JobsProvider } from './jobs-context';
import { JobsTab } from './jobs-tab';
import { ModerateTab } from './moderate-tab';
import { PolicyTab } from './policy-tab';
import { ReviewTab } from './review-tab';
import { StatusPanel } from './status-panel';
import styles from './console.module.css';

export function ModerationConsole({ initialTab }: { initialTab?: ConsoleTab }) {
  const [tab, setTab] = useState<ConsoleTab>(initialTab ?? 'moderate');
  const [review, setReview] = useState<ReviewRoute>({});
  const [auditVersion, setAuditVersion] = useState(0);
  const tabRefs = useRef<Record<string, HTMLAnchorElement | null>>({});

  /** Shows a tab (and the queue's view), remembered for `/console` and put in the history. */
  const open = useCallback((id: ConsoleTab, view: ReviewRoute = {}, focus = false) => {
    setTab(id);
    if (id === 'reviews') setReview(view);
    window.localStorage.setItem(LAST_TAB_KEY, id);
    const href = consoleHref(id, view);
    if (`${window.location.pathname}${window.location.search}` !== href) window.history.pushState(null, '', href);
    if (focus) tabRefs.current[id]?.focus();
  }, []);
  const showJobs = useCallback(() => open('jobs', {}, true), [open]);

  // The address the page was opened with (the server knows only the path), else the last tab used;
  // the browser's back and forward buttons move between the tabs shown.
  useEffect(() => {
    const fromUrl = () => {
      const route = parseConsoleRoute(window.location.pathname, window.location.search);
      const last = window.localStorage.getItem(LAST_TAB_KEY);
      const id = route.tab ?? (isConsoleTab(last) ? last : 'moderate');
      setTab(id);
      setReview(route.review);
      if (route.tab) window.localStorage.setItem(LAST_TAB_KEY, route.tab);
      else if (id !== 'moderate') window.history.replaceState(null, '', consoleHref(id));
    };
    fromUrl();
    window.addEventListener('popstate', fromUrl);
    return () => window.removeEventListener('popstate', fromUrl);
  }, []);

  // WAI-ARIA tabs: arrows move between tabs, Home/End jump, focus follows selection.
  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    const i = CONSOLE_TABS.findIndex((t) => t.id === tab);
    let next = i;
    if (e.key === 'ArrowRight') next = (i + 1) % CONSOLE_TABS.length;
    else if (e.key === 'ArrowLeft') next = (i - 1 + CONSOLE_TABS.length) % CONSOLE_TABS.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = CONSOLE_TABS.length - 1;
    else return;
    e.preventDefault();
    open(CONSOLE_TABS[next]!.id, {}, true);
  }

  const panel = (id: ConsoleTab) => ({ role: 'tabpanel', id: `panel-${id}`, 'aria-labelledby': `tab-${id}`, hidden: tab !== id });
  return (
    <ConsoleNavProvider value={open}>
      <JobsProvider showJobs={showJobs}>
        <main className={styles.layout}>
          <div className={styles.mainColumn}>
            <h1>Moderation console</h1>
            <div role="tablist" aria-label="Console sections" className={styles.tabs} onKeyDown={onKeyDown}>
              {CONSOLE_TABS.map((t) => (
                <a
                  key={t.id}
                  ref={(el) => {
                    tabRefs.current[t.id] = el;
                  }}
                  href={consoleHref(t.id)}
                  role="tab"
                  id={`tab-${t.id}`}
                  aria-selected={tab === t.id}
                  aria-controls={`panel-${t.id}`}
                  tabIndex={tab === t.id ? 0 : -1}
                  className={styles.tab}
                  data-testid={`tab-${t.id}`}
                  onClick={(e) => {
                    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
                    e.preventDefault();
                    open(t.id);
                  }}
                >
                  {t.label}
                </a>
              ))}
            </div>
            {/* Panels stay mounted (hidden) so a running batch or a typed text survives a tab switch. */}
            <section {...panel('moderate')}>
              <ModerateTab />
            </section>
            <section {...panel('batch')}>
              <BatchTab />
            </section>
            <section {...panel('jobs')}>
              <JobsTab active={tab === 'jobs'} />
            </section>
            <section {...panel('reviews')}>
              <ReviewTab active={tab === 'reviews'} route={review} onDecided={() => setAuditVersion((v) => v + 1)} />
            </section>
            <section {...panel('audit')}>
              <AuditTab active={tab === 'audit'} version={auditVersion} />
            </section>
            <section {...panel('policy')}>
              <PolicyTab active={tab === 'policy'} />
            </section>
          </div>
          <aside className={styles.side}>
            <StatusPanel />
          </aside>
        </main>
      </JobsProvider>
    </ConsoleNavProvider>
  );
}
