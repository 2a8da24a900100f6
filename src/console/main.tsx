import 'uplot/dist/uPlot.min.css';
import './style.css';
import { render, type JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, onUnauthorized, setCsrfToken } from './api.ts';
import { CustomersPage } from './pages/customers.tsx';
import { DevelopersPage } from './pages/developers.tsx';
import { LicensePage, LicensesPage } from './pages/licenses.tsx';
import { OrdersPage } from './pages/orders.tsx';
import { OverviewPage } from './pages/overview.tsx';
import { ProductsPage } from './pages/products.tsx';
import { SignIn } from './pages/signin.tsx';
import { SubscriptionsPage } from './pages/subscriptions.tsx';
import { EndpointPage, WebhooksPage } from './pages/webhooks.tsx';
import { navigate, usePath } from './router.ts';
import type { Developer, SessionAnswer } from './types.ts';
import { Link } from './ui.tsx';

/** The console's sections in the nav's order: each one's path, its label and its page. */
const SECTIONS: { to: string; text: string; page: (developer: Developer | null) => JSX.Element }[] = [
  { to: '/', text: 'Overview', page: () => <OverviewPage /> },
  { to: '/products', text: 'Products', page: () => <ProductsPage /> },
  { to: '/licenses', text: 'Licenses', page: () => <LicensesPage /> },
  { to: '/customers', text: 'Customers', page: () => <CustomersPage /> },
  { to: '/orders', text: 'Orders', page: () => <OrdersPage /> },
  { to: '/subscriptions', text: 'Subscriptions', page: () => <SubscriptionsPage /> },
  { to: '/webhooks', text: 'Webhooks', page: () => <WebhooksPage /> },
  { to: '/developers', text: 'Developers', page: (developer) => <DevelopersPage developer={developer} /> },
];

function route(path: string, developer: Developer | null) {
  const [, first, second] = path.split('/');
  if (first === 'licenses' && second) return <LicensePage id={decodeURIComponent(second)} />;
  if (first === 'webhooks' && second) return <EndpointPage id={decodeURIComponent(second)} />;
  const section = SECTIONS.find(({ to }) => to === `/${first}`);
  if (section) return section.page(developer);
  return (
    <>
      <h1 tabIndex={-1}>Not found</h1>
      <p>
        There is no such page in the console. <Link to="/">Go to the overview</Link>.
      </p>
    </>
  );
}

/**
 * The console: a probe for a session (to recover the CSRF token after a reload), then the pages.
 * Any 401 on the way shows the sign-in view; a secret key sent as X-API-Key (scripts, tests) works
 * without a session, since the API accepts it wherever the console goes.
 */
function App() {
  const path = usePath();
  const [developer, setDeveloper] = useState<Developer | null>(null);
  const [ready, setReady] = useState(false);
  const [signedOut, setSignedOut] = useState(false);
  useEffect(() => {
    onUnauthorized(() => setSignedOut(true));
    (async () => {
      try {
        const answer = await api<SessionAnswer>('GET', '/developers/console/session', undefined, { quiet401: true });
        setCsrfToken(answer.csrfToken);
        setDeveloper(answer.developer);
      } catch {
        // No session: signed in only if the browser sends a secret key itself (scripts, tests).
        await api('GET', '/developers/api-keys', undefined, { quiet401: true }).catch((e) => e instanceof ApiError && e.status === 401 && setSignedOut(true));
      }
      setReady(true);
    })();
  }, []);
  const signedIn = (answer: SessionAnswer) => {
    setCsrfToken(answer.csrfToken);
    setDeveloper(answer.developer);
    setSignedOut(false);
    navigate(path === '/signin' ? '/' : path, { replace: true });
  };
  const signOut = async () => {
    await api('POST', '/developers/logout').catch(() => {});
    setCsrfToken(null);
    setDeveloper(null);
    setSignedOut(true);
  };
  if (!ready) return <p class="muted">Loading…</p>;
  if (signedOut || path === '/signin') return <SignIn onSignedIn={signedIn} />;
  const section = `/${path.split('/')[1] ?? ''}`;
  return (
    <>
      <a class="skip" href="#content">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Seller console</span>
        <nav aria-label="Console">
          <ul>
            {SECTIONS.map(({ to, text }) => (
              <li>
                <Link to={to} aria-current={section === to ? 'page' : undefined}>
                  {text}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div class="who">
          {developer && <span class="muted">{developer.email}</span>}
          {developer && (
            <button type="button" class="secondary small" onClick={signOut}>
              Sign out
            </button>
          )}
        </div>
      </header>
      <main id="content">{route(path, developer)}</main>
    </>
  );
}

render(<App />, document.getElementById('console')!);
