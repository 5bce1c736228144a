/**
 * The 404 page: inside the site layout (navigation, skip link), with its own
 * main landmark, a heading that says what happened, and ways back.
 */
import type { Metadata } from 'next';
import Link from 'next/link';

export const metadata: Metadata = { title: 'Page not found' };

export default function NotFound() {
  return (
    <main data-testid="not-found" aria-labelledby="not-found-title">
      <h1 id="not-found-title">Page not found</h1>
      <p className="lede">There is no page at this address. It may have moved, or the link may be mistyped.</p>
      <ul>
        <li>
          <Link href="/" data-testid="not-found-home">
            Back to the home page
          </Link>
        </li>
        <li>
          <Link href="/console">Moderation console</Link>
        </li>
      </ul>
    </main>
  );
}
