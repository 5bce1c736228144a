// /console/{tab} – the moderation console opened on one tab (/console/review is the review queue)
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { CONSOLE_TABS, tabOfSlug } from '@/lib/browser/console-route';
import { ModerationConsole } from '../moderation-console';

export const metadata: Metadata = { title: 'Moderation console' };
export const dynamicParams = false;

export function generateStaticParams() {
  return CONSOLE_TABS.map((t) => ({ tab: t.slug }));
}

export default async function ConsoleTabPage({ params }: { params: Promise<{ tab: string }> }) {
  const tab = tabOfSlug((await params).tab);
  if (!tab) notFound();
  return <ModerationConsole initialTab={tab} />;
}
