import { Fragment } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { api, when, type ApiErrorBody } from '../api.js'
import { Field, FormError, Page } from '../components/form.js'
import '../components/stack.css'
import './webhooks.css'

interface Health { state: 'healthy' | 'degraded' | 'failing' | 'idle', window: number, succeeded: number, failed: number, retrying: number, waiting: number, last_success: number | null }
interface Endpoint { id: string, url: string, events: string[], status: string, disabled_reason: string | null, description: string | null, health: Health }
interface Attempt { at: number, status_code: number | null, error: string | null }
interface Delivery { id: string, event: { id: string, type: string }, status: string, attempts_count: number, attempts: Attempt[], last_error: string | null, next_attempt: number | null, replay_of: string | null, created: number }
interface Detail extends Delivery { payload: unknown }
interface List<T> { data: T[], has_more: boolean }

const EVENT_TYPES = ['score.async', 'case.created', 'case.dispositioned', 'rule.triggered', 'signal.updated']
/** Deliveries a page of the list shows. */
const PAGE_SIZE = 25
const HEALTH_WORDS: Record<Health['state'], string> = { healthy: 'Healthy', degraded: 'Degraded', failing: 'Failing', idle: 'Not attempted yet' }

/** Webhook endpoints with their health, a new one, and for the one chosen: its deliveries, newest first, paged; payloads, replays, secret rotation. */
export function Webhooks (props: { id?: string }) {
  const [endpoints, setEndpoints] = useState<Endpoint[] | null>(null)
  const [error, setError] = useState<ApiErrorBody | null>(null)
  const [version, setVersion] = useState(0)
  useEffect(() => {
    void api<List<Endpoint>>('GET', '/v1/webhooks?limit=100').then(res => { if (res.ok) setEndpoints(res.data.data); else setError(res.error) })
  }, [version])
  if (error?.code === 'insufficient_scope') {
    return (
      <Page title='Webhooks'>
        <p class='notice' role='status'>You need the <strong>webhooks:manage</strong> permission to see or change webhook endpoints and their deliveries. An admin of your account can give it to you.</p>
      </Page>
    )
  }
  return (
    <Page title='Webhooks'>
      {error !== null && <p class='error' role='alert'>{error.message}</p>}
      {endpoints !== null && (endpoints.length === 0 ? <p>No endpoints.</p> : (
        <table class='endpoints stack'>
          <caption class='visually-hidden'>Webhook endpoints</caption>
          <thead><tr><th scope='col'>Endpoint</th><th scope='col'>URL</th><th scope='col'>Events</th><th scope='col'>Status</th><th scope='col'>Recent deliveries</th></tr></thead>
          <tbody>{endpoints.map(e => (
            <tr key={e.id}>
              <td data-label='Endpoint'><a href={`/dashboard/webhooks/${e.id}`} aria-current={props.id === e.id ? 'page' : undefined}>{e.id}</a></td>
              <td data-label='URL' class='url'>{e.url}</td>
              <td data-label='Events'>{e.events.join(', ')}</td>
              <td data-label='Status'>{e.status}{e.disabled_reason !== null ? ` (${e.disabled_reason})` : ''}</td>
              <td data-label='Recent deliveries'><HealthFigure health={e.health} /></td>
            </tr>
          ))}</tbody>
        </table>
      ))}
      {props.id !== undefined ? <EndpointDetail id={props.id} onReplayed={() => setVersion(v => v + 1)} /> : endpoints !== null && <NewEndpoint onCreated={() => setVersion(v => v + 1)} />}
    </Page>
  )
}

/** "Failing: 0 of the last 20 succeeded, 20 failed", with the newest success: an enabled endpoint can be failing. */
function HealthFigure (props: { health: Health }) {
  const h = props.health
  if (h.window === 0) return <span class='health idle'><strong>No deliveries yet</strong></span>
  const others = [[h.failed, 'failed'], [h.retrying, 'retrying'], [h.waiting, 'waiting']].filter(([n]) => n !== 0).map(([n, what]) => `, ${n} ${what}`).join('')
  return (
    <span class={`health ${h.state}`}>
      <strong>{HEALTH_WORDS[h.state]}</strong>: {h.succeeded} of the last {h.window} succeeded{others}
      ; {h.last_success === null ? 'no success among them' : `last success ${when(h.last_success)}`}
    </span>
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

/** Which page of the list: the newest (neither), older than a delivery, or newer than one. */
type Cursor = { starting_after?: string, ending_before?: string }
/** What the last replay queued: the new deliveries' ids (highlighted), and whether more failed ones wait. */
interface Replayed { ids: string[], of: string | null, more: boolean }

const rowId = (deliveryId: string) => `delivery-${deliveryId}`

function EndpointDetail (props: { id: string, onReplayed: () => void }) {
  const [filter, setFilter] = useState<'' | 'failed'>('')
  const [cursor, setCursor] = useState<Cursor>({})
  const [page, setPage] = useState<List<Delivery> | null>(null)
  const [open, setOpen] = useState<Detail | null>(null)
  const [replayed, setReplayed] = useState<Replayed | null>(null)
  const [confirming, setConfirming] = useState(false)
  const [message, setMessage] = useState<string | null>(null)
  const [error, setError] = useState<ApiErrorBody | null>(null)
  const [version, setVersion] = useState(0)
  useEffect(() => {
    const q = new URLSearchParams({ limit: String(PAGE_SIZE) })
    if (filter !== '') q.set('status', filter)
    for (const [k, v] of Object.entries(cursor)) q.set(k, v)
    void api<List<Delivery>>('GET', `/v1/webhooks/${props.id}/deliveries?${q}`).then(res => { if (res.ok) setPage(res.data); else setError(res.error) })
  }, [props.id, filter, cursor, version])
  const backward = cursor.ending_before !== undefined
  const hasNewer = backward ? page?.has_more === true : cursor.starting_after !== undefined
  const hasOlder = backward ? true : page?.has_more === true
  const first = page?.data[0]
  const last = page?.data[page.data.length - 1]
  /** The newest page of every delivery, where replays (the newest deliveries) are listed. */
  const showNewest = () => { setFilter(''); setCursor({}); setVersion(v => v + 1) }

  const toggle = async (d: Delivery) => {
    if (open?.id === d.id) { setOpen(null); return }
    const res = await api<Detail>('GET', `/v1/webhooks/${props.id}/deliveries/${d.id}`)
    if (res.ok) setOpen(res.data); else setError(res.error)
  }
  const replayOne = async (d: Delivery) => {
    const res = await api<Delivery>('POST', `/v1/webhooks/${props.id}/deliveries/${d.id}/replay`)
    if (!res.ok) { setError(res.error); return }
    setError(null); setMessage(null); setReplayed({ ids: [res.data.id], of: d.id, more: false }); showNewest(); props.onReplayed()
  }
  const replayAllFailed = async () => {
    setConfirming(false)
    const res = await api<List<Delivery>>('POST', `/v1/webhooks/${props.id}/deliveries/replay`, {})
    if (!res.ok) { setError(res.error); return }
    setError(null); setMessage(null); setReplayed({ ids: res.data.data.map(d => d.id), of: null, more: res.data.has_more }); showNewest(); props.onReplayed()
  }
  const rotate = async () => {
    const res = await api<{ secret: string, previous_secret_expires: number }>('POST', `/v1/webhooks/${props.id}/rotate_secret`)
    if (res.ok) setMessage(`New signing secret (shown once): ${res.data.secret}. The previous one keeps signing until ${when(res.data.previous_secret_expires)}.`)
    else setError(res.error)
  }
  return (
    <section aria-labelledby='endpoint-title'>
      <h2 id='endpoint-title'>Deliveries of {props.id}</h2>
      <p class='hint'>Newest first, {PAGE_SIZE} a page. A replay is a new delivery of the same event, listed first.</p>
      <div class='filters'>
        <label>Show <select value={filter} onChange={e => { setFilter((e.target as HTMLSelectElement).value as ''); setCursor({}) }}>
          <option value=''>All deliveries</option><option value='failed'>Failed (dead-lettered)</option>
        </select></label>
        <button type='button' onClick={() => setVersion(v => v + 1)}>Refresh</button>
        <button type='button' onClick={() => setConfirming(true)} aria-expanded={confirming} aria-controls='replay-confirm'>Replay all failed</button>
        <button type='button' onClick={() => { void rotate() }}>Rotate secret</button>
      </div>
      {confirming && (
        <div id='replay-confirm' class='confirm' role='group' aria-labelledby='replay-confirm-text'>
          <p id='replay-confirm-text'>Send every failed delivery of {props.id} that has not been replayed yet again, as new deliveries? At most 100 are queued at a time, newest first.</p>
          <button type='button' onClick={() => { void replayAllFailed() }}>Replay them</button>{' '}
          <button type='button' class='secondary' onClick={() => setConfirming(false)}>Cancel</button>
        </div>
      )}
      {replayed !== null && <ReplayMessage replayed={replayed} />}
      {message !== null && <p role='status' class='secret'>{message}</p>}
      {error !== null && <p class='error' role='alert'>{error.message}</p>}
      {page !== null && (page.data.length === 0 ? <p>No deliveries.</p> : (
        <table class='deliveries stack'>
          <caption class='visually-hidden'>Deliveries, newest first</caption>
          <thead><tr><th scope='col'>Delivery</th><th scope='col'>Event</th><th scope='col'>Status</th><th scope='col'>Attempts</th><th scope='col'>Last error</th><th scope='col'>Created</th><th scope='col'><span class='visually-hidden'>Actions</span></th></tr></thead>
          <tbody>{page.data.map(d => (
            <Fragment key={d.id}>
              <tr id={rowId(d.id)} class={replayed?.ids.includes(d.id) === true ? 'highlight' : undefined}>
                <td data-label='Delivery'>{d.id}</td>
                <td data-label='Event'>{d.event.type}</td>
                <td data-label='Status'>{d.status}{d.replay_of !== null && <> (replay of <span class='id'>{d.replay_of}</span>)</>}</td>
                <td data-label='Attempts'>{d.attempts_count}</td>
                <td data-label='Last error'>{d.last_error ?? '—'}</td>
                <td data-label='Created'>{when(d.created)}</td>
                <td class='actions'>
                  <button type='button' onClick={() => { void toggle(d) }} aria-expanded={open?.id === d.id} aria-controls={open?.id === d.id ? `payload-${d.id}` : undefined} aria-label={`Payload of ${d.id}`}>Payload</button>{' '}
                  <button type='button' onClick={() => { void replayOne(d) }} aria-label={`Replay ${d.id}`}>Replay</button>
                </td>
              </tr>
              {open?.id === d.id && (
                <tr class='payload-row'>
                  <td colSpan={7} id={`payload-${d.id}`}>
                    <h3>Payload of {d.id}</h3>
                    <pre class='payload' tabIndex={0} aria-label={`Payload of ${d.id}`}>{JSON.stringify(open.payload, null, 2)}</pre>
                    <h4>Attempts</h4>
                    {open.attempts.length === 0 ? <p>None yet.</p> : <ol class='attempts'>{open.attempts.map((a, i) => <li key={i}>{when(a.at)}: {a.status_code ?? 'no answer'} {a.error ?? ''}</li>)}</ol>}
                  </td>
                </tr>
              )}
            </Fragment>
          ))}</tbody>
        </table>
      ))}
      <nav class='pager' aria-label='Deliveries pages'>
        <button type='button' disabled={!hasNewer || first === undefined} onClick={() => setCursor({ ending_before: first!.id })}>Previous (newer)</button>
        <button type='button' disabled={!hasOlder || last === undefined} onClick={() => setCursor({ starting_after: last!.id })}>Next (older)</button>
      </nav>
    </section>
  )
}

/** What a replay queued, naming the new deliveries with links to their rows (highlighted in the list). */
function ReplayMessage (props: { replayed: Replayed }) {
  const { ids, of, more } = props.replayed
  if (ids.length === 0) return <p role='status' class='secret'>No failed delivery is waiting for a replay.</p>
  const link = (id: string) => <a href={`#${rowId(id)}`}>{id}</a>
  if (of !== null) return <p role='status' class='secret'>Replay of {of} queued as delivery {link(ids[0]!)}, listed first below.</p>
  return (
    <p role='status' class='secret'>
      Queued {ids.length} {ids.length === 1 ? 'replay' : 'replays'}, highlighted below (newest first): {link(ids[0]!)}{ids.length > 1 ? ` and ${ids.length - 1} more` : ''}.
      {more && ' More failed deliveries are waiting: replay all failed again to queue the next ones.'}
    </p>
  )
}
