'use client';
/** The shared navigation: Console, Register, People, Recognize; the current page is marked. */
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useEffect, useState } from 'react';
import { api } from '@/lib/browser/vigil-api';

const LINKS = [
  { href: '/console', label: 'Console' },
  { href: '/register', label: 'Register' },
  { href: '/people', label: 'People' },
  { href: '/recognize', label: 'Recognize' },
] as const;

export function SiteNav() {
  const pathname = usePathname() ?? '/';
  // Shown only when the server has API keys and this browser has no session yet.
  const [needsSignIn, setNeedsSignIn] = useState(false);
  useEffect(() => {
    api.session().then(
      (s) => setNeedsSignIn(s.auth_required && !s.authenticated),
      () => undefined, // the pages report an unreachable server themselves
    );
  }, []);
  return (
    <header className="site-header">
      <nav className="site-nav" aria-label="Main">
        <Link href="/" className="brand" aria-current={pathname === '/' ? 'page' : undefined}>
          Vigil
        </Link>
        <ul>
          {LINKS.map((l) => (
            <li key={l.href}>
              <Link
                href={l.href}
                data-testid={`nav-${l.label.toLowerCase()}`}
                aria-current={pathname.startsWith(l.href) ? 'page' : undefined}
              >
                {l.label}
              </Link>
            </li>
          ))}
        </ul>
        {needsSignIn && pathname !== '/signin' && (
          <Link href={`/signin?next=${encodeURIComponent(pathname)}`} data-testid="nav-signin" className="signin-link">
            Sign in
          </Link>
        )}
      </nav>
    </header>
  );
}
