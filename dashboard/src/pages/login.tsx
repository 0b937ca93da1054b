import { useState } from 'preact/hooks'
import { api, type ApiErrorBody, type Session } from '../api.js'
import { Field, FormError, Page } from '../components/form.js'

export function Login (props: { onSignedIn: (s: Session) => void }) {
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [error, setError] = useState<ApiErrorBody | null>(null)
  const [busy, setBusy] = useState(false)
  const submit = async (e: Event) => {
    e.preventDefault()
    setBusy(true)
    const res = await api<Session>('POST', '/dashboard/api/login', { email, password })
    setBusy(false)
    if (res.ok) props.onSignedIn(res.data)
    else setError(res.error)
  }
  return (
    <main class='narrow'>
      <Page title='Sign in'>
        <form onSubmit={submit} aria-describedby='login-error'>
          <Field label='Email' name='email' type='email' value={email} onInput={setEmail} error={error} required autoComplete='username' maxLength={254} />
          <Field label='Password' name='password' type='password' value={password} onInput={setPassword} error={error} required autoComplete='current-password' maxLength={256} />
          <div id='login-error'><FormError error={error} fields={['email', 'password']} /></div>
          <button type='submit' disabled={busy}>Sign in</button>
        </form>
      </Page>
    </main>
  )
}
