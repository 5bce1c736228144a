// /console – moderation console: live browser preview, server verdicts, batches, review queue (the tab last used)
import type { Metadata } from 'next';
import { ModerationConsole } from './moderation-console';

export const metadata: Metadata = { title: 'Moderation console' };

export default function ConsolePage() {
  return <ModerationConsole />;
}
