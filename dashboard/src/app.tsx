import { useEffect, useState } from 'preact/hooks'
import { LocationProvider, Route, Router, useLocation } from 'preact-iso'
import { api, can, currentMode, setCsrfToken, setMode, type Mode, type Session } from './api.js'
import { Login } from './pages/login.js'
import { Setup } from './pages/setup.js'
import { Queue } from './pages/queue.js'
import { CasePage } from './pages/case.js'
import { Webhooks } from './pages/webhooks.js'
import { DecisionPage, Decisions } from './pages/decisions.js'
import { Rules } from './pages/rules.js'
import { OverviewPage } from './pages/overview.js'
import { Users } from './pages/users.js'

function Shell (props: { session: Session, onSignOut: () => void }) {
  const [mode, setShown] = useState<Mode>(currentMode())
  const { path } = useLocation()
  const switchMode = (m: Mode) => { setMode(m); setShown(m) }
  const signOut = async () => { await api('POST', '/dashboard/api/logout'); props.onSignOut() }
  const link = (href: string, label: string) => <a href={href} aria-current={path === href ? 'page' : undefined}>{label}</a>
  return (
    <>
      <header class={`top ${mode}`}>
        <nav aria-label='Main'>
          {link('/dashboard/', 'Review queue')}
          {can(props.session, 'transactions:read') && link('/dashboard/decisions', 'Decisions')}
          {can(props.session, 'rules:read') && link('/dashboard/rules', 'Rules and lists')}
          {can(props.session, 'webhooks:manage') && link('/dashboard/webhooks', 'Webhooks')}
          {can(props.session, 'transactions:read') && link('/dashboard/overview', 'Overview')}
          {can(props.session, 'users:manage') && link('/dashboard/users', 'Users')}
        </nav>
        <div class='account'>
          <label class='mode'>
            <input type='checkbox' checked={mode === 'test'} onChange={e => switchMode((e.target as HTMLInputElement).checked ? 'test' : 'live')} /> Sandbox
          </label>
          <span class='who' data-testid='signed-in-as'>{props.session.user.name} ({props.session.user.role})</span>
          <button type='button' onClick={() => { void signOut() }}>Sign out</button>
        </div>
      </header>
      {mode === 'test' && <p class='banner' role='status'>Sandbox data: live decisions are not shown.</p>}
      {/* Keyed by mode: switching between live and sandbox loads every view again. */}
      <main key={mode}>
        <Router>
          <Route path='/dashboard/' component={() => <Queue session={props.session} mode={mode} />} />
          <Route path='/dashboard/cases/:id' component={({ id }: { id: string }) => <CasePage id={id} session={props.session} mode={mode} />} />
          <Route path='/dashboard/decisions' component={() => <Decisions />} />
          <Route path='/dashboard/decisions/:id' component={({ id }: { id: string }) => <DecisionPage id={id} />} />
          <Route path='/dashboard/rules' component={() => <Rules session={props.session} />} />
          <Route path='/dashboard/rules/:id' component={({ id }: { id: string }) => <Rules session={props.session} id={id} />} />
          <Route path='/dashboard/overview' component={() => <OverviewPage />} />
          <Route path='/dashboard/users' component={() => <Users session={props.session} />} />
          <Route path='/dashboard/webhooks' component={() => <Webhooks />} />
          <Route path='/dashboard/webhooks/:id' component={({ id }: { id: string }) => <Webhooks id={id} />} />
          <Route default component={() => <p>Page not found.</p>} />
        </Router>
      </main>
    </>
  )
}

export function App () {
  const [session, setSession] = useState<Session | null | undefined>(undefined)
  const adopt = (s: Session | null) => { if (s !== null) setCsrfToken(s.csrf_token); setSession(s) }
  useEffect(() => {
    void api<Session>('GET', '/dashboard/api/session').then(res => adopt(res.ok ? res.data : null))
    const ended = () => setSession(null)
    window.addEventListener('session-ended', ended)
    return () => window.removeEventListener('session-ended', ended)
  }, [])
  if (session === undefined) return <main><p>Loading…</p></main>
  if (location.pathname === '/dashboard/setup') return <Setup onDone={() => location.assign('/dashboard/')} />
  if (session === null) return <Login onSignedIn={adopt} />
  return <LocationProvider><Shell session={session} onSignOut={() => setSession(null)} /></LocationProvider>
}
