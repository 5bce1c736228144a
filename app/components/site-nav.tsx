'use client';
/** The shared navigation: Console, Register, People, Recognize; the current page is marked. */
import Link from 'next/link';
import { usePathname } from 'next/navigation';

const LINKS = [
  { href: '/console', label: 'Console' },
  { href: '/register', label: 'Register' },
  { href: '/people', label: 'People' },
  { href: '/recognize', label: 'Recognize' },
] as const;

export function SiteNav() {
  const pathname = usePathname() ?? '/';
  return (
    <header className="site-header">
      <nav className="site-nav" aria-label="Main">
        <Link href="/" className="brand" aria-current={pathname === '/' ? 'page' : undefined}>
          Vigil
        </Link>
        <ul>
          {LINKS.map((l) => (
            <li key={l.href}>
              <Link href={l.href} data-testid={`nav-${l.label.toLowerCase()}`} aria-current={pathname.startsWith(l.href) ? 'page' : undefined}>
                {l.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}
