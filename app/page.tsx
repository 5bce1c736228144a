// / – a small dashboard linking the console, registration, people and recognition
import Link from 'next/link';

const CARDS = [
  {
    href: '/console',
    title: 'Moderation console',
    text: 'Live in-browser preview, authoritative server verdicts, batches and the review queue.',
  },
  {
    href: '/register',
    title: 'Register a person',
    text: 'One clear photo through the webcam (or an upload) registers a person, with live face guidance; a few more, each a little different, help recognition.',
  },
  { href: '/people', title: 'People', text: 'Everyone registered: rename, edit the relationship, add photos or delete.' },
  { href: '/recognize', title: 'Recognize', text: 'Name the people in front of the camera, on demand or every few seconds.' },
] as const;

export default function Home() {
  return (
    <main>
      <h1>Vigil</h1>
      <p className="lede">Text moderation and a person memory bank. The server is the authority; in-browser results are previews.</p>
      <ul className="card-grid">
        {CARDS.map((c) => (
          <li key={c.href} className="card">
            <h2>
              <Link href={c.href}>{c.title}</Link>
            </h2>
            <p>{c.text}</p>
          </li>
        ))}
      </ul>
      <p className="muted">
        API: <a href="/openapi.json">OpenAPI document</a> · <a href="/v1/health">health</a> · <a href="/v1/models">models</a> ·{' '}
        <a href="/lab/browser-inference">browser-inference lab</a>
      </p>
    </main>
  );
}
