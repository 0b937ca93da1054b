import { useEffect, useState } from 'preact/hooks'
import { api, when, type ApiErrorBody } from '../api.js'
import { Field, FormError, Page } from '../components/form.js'

interface Endpoint { id: string, url: string, events: string[], status: string, description: string | null }
interface Delivery { id: string, event: { id: string, type: string }, status: string, attempts_count: number, last_error: string | null, next_attempt: number | null, replay_of: string | null, created: number }
interface List<T> { data: T[], has_more: boolean }

const EVENT_TYPES = ['score.async', 'case.created', 'case.dispositioned', 'rule.triggered', 'signal.updated']

/** Webhook endpoints, a new one, and for the one chosen: recent and failed deliveries, payloads, replay, secret rotation. */
export function Webhooks (props: { id?: string }) {
  const [endpoints, setEndpoints] = useState<Endpoint[] | null>(null)
  const [error, setError] = useState<ApiErrorBody | null>(null)
  const [version, setVersion] = useState(0)
  useEffect(() => {
    void api<List<Endpoint>>('GET', '/v1/webhooks?limit=100').then(res => { if (res.ok) setEndpoints(res.data.data); else setError(res.error) })
  }, [version])
  return (
    <Page title='Webhooks'>
      {error !== null && <p class='error' role='alert'>{error.message}</p>}
      {endpoints !== null && (endpoints.length === 0 ? <p>No endpoints.</p> : (
        <table>
          <caption class='visually-hidden'>Webhook endpoints</caption>
          <thead><tr><th scope='col'>Endpoint</th><th scope='col'>URL</th><th scope='col'>Events</th><th scope='col'>Status</th></tr></thead>
          <tbody>{endpoints.map(e => (
            <tr key={e.id}>
              <td><a href={`/dashboard/webhooks/${e.id}`} aria-current={props.id === e.id ? 'page' : undefined}>{e.id}</a></td>
              <td>{e.url}</td><td>{e.events.join(', ')}</td><td>{e.status}</td>
            </tr>
          ))}</tbody>
        </table>
      ))}
      {props.id !== undefined ? <EndpointDetail id={props.id} /> : <NewEndpoint onCreated={() => setVersion(v => v + 1)} />}
    </Page>
  )
}

function NewEndpoint (props: { onCreated: () => void }) {
  const [url, setUrl] = useState('')
  const [events, setEvents] = useState<string[]>(['case.created'])
  const [error, setError] = useState<ApiErrorBody | null>(null)
  const [secret, setSecret] = useState<string | null>(null)
  const submit = async (e: Event) => {
    e.preventDefault()
    if (!url.startsWith('https://')) { setError({ type: 'invalid_request_error', code: 'parameter_invalid', message: 'The URL must start with https://.', param: 'url' }); return }
    if (events.length === 0) { setError({ type: 'invalid_request_error', code: 'parameter_missing', message: 'Choose at least one event.', param: 'events' }); return }
    const res = await api<{ secret: string }>('POST', '/v1/webhooks', { url, events })
    if (!res.ok) { setError(res.error); return }
    setError(null); setSecret(res.data.secret); setUrl(''); props.onCreated()
  }
  return (
    <section aria-labelledby='new-endpoint'>
      <h2 id='new-endpoint'>New endpoint</h2>
      {secret !== null && <p role='status' class='secret'>Signing secret (shown once): <code>{secret}</code></p>}
      <form onSubmit={submit}>
        <Field label='URL' name='url' type='url' value={url} onInput={setUrl} error={error} required maxLength={2048} />
        <fieldset aria-describedby={error?.param?.startsWith('events') === true ? 'events-error' : undefined}>
          <legend>Events</legend>
          {EVENT_TYPES.map(t => (
            <label key={t} class='choice'><input type='checkbox' checked={events.includes(t)} onChange={e => setEvents((e.target as HTMLInputElement).checked ? [...events, t] : events.filter(x => x !== t))} /> {t}</label>
          ))}
        </fieldset>
        {error?.param?.startsWith('events') === true && <p id='events-error' class='error' role='alert'>{error.message}</p>}
        <FormError error={error} fields={['url', 'events']} />
        <button type='submit'>Add endpoint</button>
      </form>
    </section>
  )
}

function EndpointDetail (props: { id: string }) {
  const [filter, setFilter] = useState<'' | 'failed'>('')
  const [deliveries, setDeliveries] = useState<Delivery[] | null>(null)
  const [shown, setShown] = useState<{ id: string, payload: unknown, attempts: Array<{ at: number, status_code: number | null, error: string | null }> } | null>(null)
  const [message, setMessage] = useState<string | null>(null)
  const [error, setError] = useState<ApiErrorBody | null>(null)
  const [version, setVersion] = useState(0)
  useEffect(() => {
    const q = new URLSearchParams({ limit: '50' })
    if (filter !== '') q.set('status', filter)
    void api<List<Delivery>>('GET', `/v1/webhooks/${props.id}/deliveries?${q}`).then(res => { if (res.ok) setDeliveries(res.data.data); else setError(res.error) })
  }, [props.id, filter, version])
  const show = async (d: Delivery) => {
    const res = await api<{ id: string, payload: unknown, attempts: Array<{ at: number, status_code: number | null, error: string | null }> }>('GET', `/v1/webhooks/${props.id}/deliveries/${d.id}`)
    if (res.ok) setShown(res.data); else setError(res.error)
  }
  const replay = async (d: Delivery) => {
    const res = await api<{ id: string }>('POST', `/v1/webhooks/${props.id}/deliveries/${d.id}/replay`)
    if (res.ok) { setMessage(`Replay ${res.data.id} queued.`); setVersion(v => v + 1) } else setError(res.error)
  }
  const rotate = async () => {
    const res = await api<{ secret: string, previous_secret_expires: number }>('POST', `/v1/webhooks/${props.id}/rotate_secret`)
    if (res.ok) setMessage(`New signing secret (shown once): ${res.data.secret}. The previous one keeps signing until ${when(res.data.previous_secret_expires)}.`)
    else setError(res.error)
  }
  return (
    <section aria-labelledby='endpoint-title'>
      <h2 id='endpoint-title'>Deliveries of {props.id}</h2>
      <div class='filters'>
        <label>Show <select value={filter} onChange={e => setFilter((e.target as HTMLSelectElement).value as '')}>
          <option value=''>Recent</option><option value='failed'>Failed (dead-lettered)</option>
        </select></label>
        <button type='button' onClick={() => setVersion(v => v + 1)}>Refresh</button>
        <button type='button' onClick={() => { void rotate() }}>Rotate secret</button>
      </div>
      {message !== null && <p role='status' class='secret'>{message}</p>}
      {error !== null && <p class='error' role='alert'>{error.message}</p>}
      {deliveries !== null && (deliveries.length === 0 ? <p>No deliveries.</p> : (
        <table class='deliveries'>
          <caption class='visually-hidden'>Deliveries</caption>
          <thead><tr><th scope='col'>Delivery</th><th scope='col'>Event</th><th scope='col'>Status</th><th scope='col'>Attempts</th><th scope='col'>Last error</th><th scope='col'>Created</th><th scope='col'><span class='visually-hidden'>Actions</span></th></tr></thead>
          <tbody>{deliveries.map(d => (
            <tr key={d.id}>
              <td>{d.id}</td><td>{d.event.type}</td><td>{d.status}{d.replay_of !== null ? ' (replay)' : ''}</td><td>{d.attempts_count}</td>
              <td>{d.last_error ?? '—'}</td><td>{when(d.created)}</td>
              <td>
                <button type='button' onClick={() => { void show(d) }} aria-label={`Payload of ${d.id}`}>Payload</button>{' '}
                <button type='button' onClick={() => { void replay(d) }} aria-label={`Replay ${d.id}`}>Replay</button>
              </td>
            </tr>
          ))}</tbody>
        </table>
      ))}
      {shown !== null && (
        <section aria-labelledby='payload-title'>
          <h3 id='payload-title'>Payload of {shown.id}</h3>
          <pre class='payload'>{JSON.stringify(shown.payload, null, 2)}</pre>
          <ol>{shown.attempts.map((a, i) => <li key={i}>{when(a.at)}: {a.status_code ?? 'no answer'} {a.error ?? ''}</li>)}</ol>
        </section>
      )}
    </section>
  )
}
