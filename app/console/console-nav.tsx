'use client';
/**
 * Moving inside the console without reloading it: `open` switches the tab (and the review queue's
 * view) and puts its address in the history (lib/browser/console-route.ts); `ConsoleLink` is a real
 * link to that address, so it can also be opened in a new tab or copied.
 */
import { createContext, useContext, type MouseEvent, type ReactNode } from 'react';
import { consoleHref, type ConsoleTab, type ReviewRoute } from '@/lib/browser/console-route';

type Open = (tab: ConsoleTab, review?: ReviewRoute) => void;

const NavContext = createContext<Open | null>(null);
export const ConsoleNavProvider = NavContext.Provider;

export function useConsoleNav(): Open {
  const open = useContext(NavContext);
  if (!open) throw new Error('useConsoleNav needs the moderation console around it');
  return open;
}

interface ConsoleLinkProps {
  tab: ConsoleTab;
  review?: ReviewRoute;
  testId?: string;
  className?: string;
  children: ReactNode;
}

export function ConsoleLink({ tab, review, testId, className, children }: ConsoleLinkProps) {
  const open = useConsoleNav();
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    // A new tab or window keeps the browser's own behaviour.
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    open(tab, review);
  };
  return (
    <a href={consoleHref(tab, review)} data-testid={testId} className={className} onClick={onClick}>
      {children}
    </a>
  );
}
