/**
 * The console's addresses (docs/decisions/207-console-addresses-and-keyboard.md): each tab has its
 * own path (`/console/review`, …), and the review queue's view is in the query: `status=backlog`
 * opens the backlog, `job=<id>` one bulk job's flagged rows, `q=` a search. `/console` alone opens
 * the tab last used in this browser.
 */
import { REVIEW_STATUSES } from '@/lib/contracts/reviews';

export const CONSOLE_TABS = [
  { id: 'moderate', slug: 'moderate', label: 'Moderate' },
  { id: 'batch', slug: 'batch', label: 'Batch' },
  { id: 'jobs', slug: 'jobs', label: 'Jobs' },
  { id: 'reviews', slug: 'review', label: 'Review queue' },
  { id: 'audit', slug: 'audit', label: 'Audit log' },
  { id: 'policy', slug: 'policy', label: 'Policy' },
] as const;
export type ConsoleTab = (typeof CONSOLE_TABS)[number]['id'];

/** Where the last tab used is remembered (localStorage). */
export const LAST_TAB_KEY = 'vigil.console.tab';

/** The review queue's view as an address carries it. */
export interface ReviewRoute {
  status?: (typeof REVIEW_STATUSES)[number] | 'all';
  job?: string;
  q?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const STATUSES: readonly string[] = [...REVIEW_STATUSES, 'all'];

export const tabOfSlug = (slug: string | undefined): ConsoleTab | undefined => CONSOLE_TABS.find((t) => t.slug === slug)?.id;
export const isConsoleTab = (id: string | null | undefined): id is ConsoleTab => CONSOLE_TABS.some((t) => t.id === id);

/** The tab and review view of an address; unknown values are left out rather than refused. */
export function parseConsoleRoute(pathname: string, search: string): { tab?: ConsoleTab; review: ReviewRoute } {
  const slug = /^\/console\/([^/?#]+)\/?$/.exec(pathname)?.[1];
  const params = new URLSearchParams(search);
  const review: ReviewRoute = {};
  const status = params.get('status');
  if (status && STATUSES.includes(status)) review.status = status as ReviewRoute['status'];
  const job = params.get('job');
  if (job && UUID.test(job)) review.job = job.toLowerCase();
  const q = params.get('q')?.trim();
  if (q) review.q = q.slice(0, 200);
  return { tab: tabOfSlug(slug), review };
}

/** The address of a tab (and, for the review queue, of its view). */
export function consoleHref(tab: ConsoleTab, review: ReviewRoute = {}): string {
  const slug = CONSOLE_TABS.find((t) => t.id === tab)!.slug;
  const params = new URLSearchParams();
  if (tab === 'reviews') {
    if (review.status && review.status !== 'pending') params.set('status', review.status);
    if (review.job) params.set('job', review.job);
    if (review.q) params.set('q', review.q);
  }
  const query = params.toString();
  return `/console/${slug}${query ? `?${query}` : ''}`;
}
