// The console's frame: sign-in when there is no session, else the navigation and the page the
// hash names. Pages are loaded on demand (each its own chunk), so the first load carries only
// this frame and the page shown.
import { lazy, Suspense, useSyncExternalStore, type ComponentType, type LazyExoticComponent } from 'react';
import { useConnection } from './api/network.ts';
import { sessionState, signOut, subscribe } from './api/session.ts';
import { SignIn } from './pages/SignIn.tsx';
import { href, useRoute } from './router.ts';

const PAGES: { id: string; label: string; component: LazyExoticComponent<ComponentType<{ rest: string[] }>> }[] = [
  { id: 'molecules', label: 'Molecules', component: lazy(() => import('./pages/Molecules.tsx')) },
  { id: 'jobs', label: 'Jobs', component: lazy(() => import('./pages/Jobs.tsx')) },
  { id: 'workflows', label: 'Workflows', component: lazy(() => import('./pages/Workflows.tsx')) },
  { id: 'models', label: 'Models', component: lazy(() => import('./pages/Models.tsx')) },
  { id: 'assistant', label: 'Assistant', component: lazy(() => import('./pages/Assistant.tsx')) },
  { id: 'library', label: 'Library', component: lazy(() => import('./pages/Library.tsx')) },
  { id: 'account', label: 'Account', component: lazy(() => import('./pages/Account.tsx')) },
];

export function App() {
  const session = useSyncExternalStore(subscribe, sessionState);
  const route = useRoute();
  const connection = useConnection();
  if (!session.signedIn) return <SignIn reason={session.endedBecause} email={session.email} />;
  const page = PAGES.find((p) => p.id === route.page) ?? PAGES[0]!;
  const Page = page.component;
  return (
    <>
      <a
        className="skip"
        href="#main"
        onClick={(e) => {
          // The hash is the route: move focus instead of navigating.
          e.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        Skip to content
      </a>
      <header className="top">
        <span className="brand">Crucible</span>
        <nav aria-label="Console">
          {PAGES.map((p) => (
            <a key={p.id} href={href(p.id)} aria-current={p.id === page.id ? 'page' : undefined}>
              {p.label}
            </a>
          ))}
        </nav>
        <span className="who">
          <span className="muted small">{session.email}</span>
          <button type="button" className="link" onClick={() => void signOut()}>
            Sign out
          </button>
        </span>
      </header>
      {!connection.online && (
        <p className="offline" role="status">
          Connection to the server lost. Reconnecting… Live views resume where they stopped.
        </p>
      )}
      <main id="main" tabIndex={-1}>
        <Suspense fallback={<p className="muted">Loading…</p>}>
          <Page key={page.id} rest={route.rest} />
        </Suspense>
      </main>
    </>
  );
}
