import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import { SiteNav } from './components/site-nav';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Vigil', template: '%s · Vigil' },
  description: 'Text moderation and a person memory bank',
};

export const viewport: Viewport = { width: 'device-width', initialScale: 1 };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <SiteNav />
        <div id="main" className="page" tabIndex={-1}>
          {children}
        </div>
      </body>
    </html>
  );
}
