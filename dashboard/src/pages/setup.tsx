import { useState } from 'preact/hooks'
import { api, type ApiErrorBody } from '../api.js'
import { Field, FormError, Page } from '../components/form.js'

/** The first admin, from the one-time link the service printed at its first start (the token is the URL's fragment). */
export function Setup (props: { onDone: () => void }) {
  const token = location.hash.slice(1)
  const [email, setEmail] = useState('')
  const [name, setName] = useState('')
  const [password, setPassword] = useState('')
  const [error, setError] = useState<ApiErrorBody | null>(null)
  const submit = async (e: Event) => {
    e.preventDefault()
    if (password.length < 12) { setError({ type: 'invalid_request_error', code: 'parameter_invalid', message: 'The password must be at least 12 characters long.', param: 'password' }); return }
    const res = await api('POST', '/dashboard/api/setup', { token, email, name, password })
    if (res.ok) props.onDone(); else setError(res.error)
  }
  return (
    <main class='narrow'>
      <Page title='Create the first admin'>
        <form onSubmit={submit}>
          <Field label='Name' name='name' value={name} onInput={setName} error={error} required maxLength={200} />
          <Field label='Email' name='email' type='email' value={email} onInput={setEmail} error={error} required autoComplete='username' maxLength={254} />
          <Field label='Password (12 characters or more)' name='password' type='password' value={password} onInput={setPassword} error={error} required autoComplete='new-password' maxLength={256} />
          <FormError error={error} fields={['name', 'email', 'password']} />
          <button type='submit'>Create admin</button>
        </form>
      </Page>
    </main>
  )
}
