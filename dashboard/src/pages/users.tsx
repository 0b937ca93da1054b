import { useEffect, useState } from 'preact/hooks'
import { api, can, when, type ApiErrorBody, type Session } from '../api.js'
import { Field, FormError, Page } from '../components/form.js'
import '../components/stack.css'
import './users.css'

type Role = Session['user']['role']
interface User { id: string, email: string, name: string, role: Role, status: 'active' | 'disabled', created: number }
interface List<T> { data: T[], has_more: boolean }

const ROLES: Role[] = ['admin', 'analyst', 'viewer']
/** What each role may do (src/domain/dashboard/roles.ts). */
const ROLE_WORDS: Record<Role, string> = {
  admin: 'everything: cases, rules, lists, webhooks, keys and users',
  analyst: 'works cases and list items; reads decisions, rules and the audit trail',
  viewer: 'reads only'
}
/** Users a page of the list shows. */
const PAGE_SIZE = 100
const MIN_PASSWORD = 12
const aRole = (role: Role) => `${/^[aeiou]/.test(role) ? 'an' : 'a'} ${role}`

/** Dashboard users of the account (admins only): each one's role and status, a new user, a role changed, a user disabled or enabled again. */
export function Users (props: { session: Session }) {
  const allowed = can(props.session, 'users:manage')
  const [users, setUsers] = useState<User[] | null>(null)
  const [more, setMore] = useState(false)
  const [error, setError] = useState<ApiErrorBody | null>(null)
  const [message, setMessage] = useState<string | null>(null)
  const load = async (after?: string) => {
    const res = await api<List<User>>('GET', `/v1/dashboard_users?limit=${PAGE_SIZE}${after === undefined ? '' : `&starting_after=${after}`}`)
    if (!res.ok) { setError(res.error); return }
    setUsers(shown => after === undefined ? res.data.data : [...(shown ?? []), ...res.data.data])
    setMore(res.data.has_more)
  }
  useEffect(() => { if (allowed) void load() }, [allowed])
  if (!allowed || error?.code === 'insufficient_scope') {
    return (
      <Page title='Users'>
        <p class='notice' role='status'>Only an admin can see and change the dashboard’s users and their roles (the <strong>users:manage</strong> permission). An admin of your account can change your role.</p>
      </Page>
    )
  }
  const change = async (u: User, body: Partial<Pick<User, 'role' | 'status'>>, done: string) => {
    setError(null)
    const res = await api<User>('POST', `/v1/dashboard_users/${u.id}`, body)
    if (!res.ok) { setError(res.error); setMessage(null); return }
    setUsers(shown => shown?.map(x => x.id === u.id ? res.data : x) ?? null)
    setMessage(done)
  }
  return (
    <Page title='Users'>
      {message !== null && <p class='saved' role='status'>{message}</p>}
      {error !== null && <p class='error' role='alert'>{error.message}</p>}
      {users === null ? <p>Loading…</p> : (
        <table class='users stack'>
          <caption class='visually-hidden'>Dashboard users</caption>
          <thead><tr><th scope='col'>Name</th><th scope='col'>Email</th><th scope='col'>Role</th><th scope='col'>Status</th><th scope='col'>Added</th><th scope='col'><span class='visually-hidden'>Actions</span></th></tr></thead>
          <tbody>
            {users.map(u => {
              const self = u.id === props.session.user.id
              return (
                <tr key={u.id} data-testid={`user-${u.email}`}>
                  <td data-label='Name'>{u.name}{self && ' (you)'}</td>
                  <td data-label='Email' class='email'>{u.email}</td>
                  <td data-label='Role'>
                    {self ? u.role : (
                      <select aria-label={`Role of ${u.name}`} value={u.role} onChange={e => { const role = (e.target as HTMLSelectElement).value as Role; void change(u, { role }, `${u.name} is now ${aRole(role)}.`) }}>
                        {ROLES.map(r => <option key={r} value={r}>{r}</option>)}
                      </select>
                    )}
                  </td>
                  <td data-label='Status'>{u.status === 'active' ? 'Active' : 'Disabled'}</td>
                  <td data-label='Added'>{when(u.created)}</td>
                  <td>
                    {!self && (u.status === 'active'
                      ? <button type='button' class='secondary' onClick={() => { void change(u, { status: 'disabled' }, `${u.name} is disabled: signed out, and cannot sign in until enabled again.`) }}>Disable {u.name}</button>
                      : <button type='button' onClick={() => { void change(u, { status: 'active' }, `${u.name} is enabled again.`) }}>Enable {u.name}</button>)}
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
      )}
      {more && users !== null && <button type='button' onClick={() => { void load(users[users.length - 1]!.id) }}>Show more</button>}
      <dl class='roles'>
        {ROLES.map(r => <div key={r}><dt>{r}</dt><dd>{ROLE_WORDS[r]}</dd></div>)}
      </dl>
      <NewUser onCreated={u => { setUsers(shown => [...(shown ?? []), u]); setMessage(`${u.name} (${u.email}) can now sign in as ${aRole(u.role)} with the password you chose; ask them to keep it to themselves.`); setError(null) }} />
    </Page>
  )
}

function NewUser (props: { onCreated: (u: User) => void }) {
  const [name, setName] = useState('')
  const [email, setEmail] = useState('')
  const [role, setRole] = useState<Role>('analyst')
  const [password, setPassword] = useState('')
  const [error, setError] = useState<ApiErrorBody | null>(null)
  const submit = async (e: Event) => {
    e.preventDefault()
    if (password.length < MIN_PASSWORD) { setError({ type: 'invalid_request_error', code: 'parameter_invalid', message: `The password must be at least ${MIN_PASSWORD} characters long.`, param: 'password' }); return }
    const res = await api<User>('POST', '/v1/dashboard_users', { name, email, role, password })
    if (!res.ok) { setError(res.error); return }
    setError(null); setName(''); setEmail(''); setPassword('')
    props.onCreated(res.data)
  }
  return (
    <form class='new-user' onSubmit={submit} aria-labelledby='new-user-title'>
      <h2 id='new-user-title'>Add a user</h2>
      <Field label='Name' name='name' value={name} onInput={setName} error={error} required maxLength={200} />
      <Field label='Email' name='email' type='email' value={email} onInput={setEmail} error={error} required autoComplete='off' maxLength={254} />
      <div class='field'>
        <label for='f-role'>Role</label>
        <select id='f-role' name='role' value={role} onChange={e => setRole((e.target as HTMLSelectElement).value as Role)}>
          {ROLES.map(r => <option key={r} value={r}>{r}: {ROLE_WORDS[r]}</option>)}
        </select>
      </div>
      <Field label={`Password (${MIN_PASSWORD} characters or more)`} name='password' type='password' value={password} onInput={setPassword} error={error} required autoComplete='new-password' maxLength={256} />
      <FormError error={error} fields={['name', 'email', 'password']} />
      <button type='submit'>Add user</button>
    </form>
  )
}
