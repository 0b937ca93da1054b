import { useEffect, useRef, useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { api, can, when, type ApiErrorBody, type Session } from '../api.js'
import { Field, FormError, Page } from '../components/form.js'
import { Bars } from '../components/bars.js'
import { Lists } from './lists.js'
import { Rollouts } from './rollouts.js'
import { byWhom, err, type Hits } from './rules-shared.js'
import '../components/stack.css'
import './rules.css'

interface Rule { id: string, name: string, expression: string, action: string, mode: string, priority: number, status: string, description?: string, ruleset_version: string }
type RuleChange = 'rule.upserted' | 'rollout.updated' | 'rollout.promoted'
interface HistoryEntry { ruleset_version: string, created: number, actor: string, change: RuleChange, rule: Omit<Rule, 'ruleset_version'> }
interface Backtest { evaluated: number, matched: number, errors: number, truncated: boolean, matched_by_outcome: Record<string, number>, matched_by_action: Record<string, number> }

const PAGE = 100
/** Rules by mode and status with their hits of the last 24 h; one rule's editor, history, backtest; rollouts; lists. */
export function Rules (props: { session: Session, id?: string }) {
  const [mode, setMode] = useState('')
  const [status, setStatus] = useState('')
  const [rules, setRules] = useState<Rule[] | null>(null)
  const [hasMore, setHasMore] = useState(false)
  const [hits, setHits] = useState<Hits | null>(null)
  const [error, setError] = useState<ApiErrorBody | null>(null)
  const [version, setVersion] = useState(0)
  const query = (after?: string) => {
    const q = new URLSearchParams({ limit: String(PAGE) })
    if (mode !== '') q.set('mode', mode)
    if (status !== '') q.set('status', status)
    if (after !== undefined) q.set('starting_after', after)
    return `/v1/rules?${q}`
  }
  useEffect(() => {
    void api<{ data: Rule[], has_more: boolean }>('GET', query()).then(res => {
      if (res.ok) { setRules(res.data.data); setHasMore(res.data.has_more) } else setError(res.error)
    })
    void api<Hits>('GET', '/v1/rules/hits?hours=24').then(res => { if (res.ok) setHits(res.data) })
  }, [mode, status, version])
  const more = async () => {
    const res = await api<{ data: Rule[], has_more: boolean }>('GET', query(rules?.at(-1)?.id))
    if (res.ok) { setRules(r => [...(r ?? []), ...res.data.data]); setHasMore(res.data.has_more) } else setError(res.error)
  }
  const changed = () => setVersion(v => v + 1)
  return (
    <Page title='Rules and lists'>
      <div class='rules-page'>
        {props.id !== undefined && <RuleView key={props.id} id={props.id} session={props.session} onSaved={changed} />}
        <section aria-labelledby='rules-title'>
          <h2 id='rules-title'>Rules</h2>
          <form class='filters' aria-label='Filters' onSubmit={e => e.preventDefault()}>
            <label>Mode <select value={mode} onChange={e => setMode((e.target as HTMLSelectElement).value)}><option value=''>All</option><option value='enforce'>Enforce</option><option value='shadow'>Shadow</option></select></label>
            <label>Status <select value={status} onChange={e => setStatus((e.target as HTMLSelectElement).value)}><option value=''>All</option><option value='active'>Active</option><option value='disabled'>Disabled</option></select></label>
            {can(props.session, 'rules:write') && <a class='button' href='/dashboard/rules/new'>New rule</a>}
          </form>
          {error !== null && <p class='error' role='alert'>{error.message}</p>}
          {rules !== null && (
            <table class='rules stack'>
              <caption>{rules.length} rules{hasMore ? ' shown, more follow' : ''} ({hits === null ? 'hits …' : `hits over the last 24 h, of ${hits.decisions.toLocaleString('en-US')} decisions`})</caption>
              <thead><tr><th scope='col'>Rule</th><th scope='col'>Name</th><th scope='col'>Action</th><th scope='col'>Mode</th><th scope='col'>Status</th><th scope='col'>Enforce hits</th><th scope='col'>Shadow hits</th></tr></thead>
              <tbody>{rules.map(r => (
                <tr key={r.id}>
                  <td data-label='Rule'><a href={`/dashboard/rules/${r.id}`} aria-current={props.id === r.id ? 'page' : undefined}>{r.id}</a></td>
                  <td data-label='Name'>{r.name}</td><td data-label='Action'>{r.action}</td><td data-label='Mode'>{r.mode}</td><td data-label='Status'>{r.status}</td>
                  <td data-label='Enforce hits'>{hits?.hits[r.id]?.enforce ?? 0}</td><td data-label='Shadow hits'>{hits?.hits[r.id]?.shadow ?? 0}</td>
                </tr>
              ))}</tbody>
            </table>
          )}
          {hasMore && <button type='button' onClick={() => { void more() }}>More rules</button>}
        </section>
        <Rollouts session={props.session} hits={hits} onChanged={changed} />
        <Lists session={props.session} />
      </div>
    </Page>
  )
}

/** One rule (or a new one): its editor, and once saved its history and a backtest. */
function RuleView (props: { id: string, session: Session, onSaved: () => void }) {
  const [rule, setRule] = useState<(Rule & { history: HistoryEntry[] }) | null | undefined>(props.id === 'new' ? null : undefined)
  const [missing, setMissing] = useState<ApiErrorBody | null>(null)
  const [turn, setTurn] = useState(0)
  const [draft, setDraft] = useState<string | null>(null)
  useEffect(() => {
    if (props.id === 'new') return
    void api<Rule & { history: HistoryEntry[] }>('GET', `/v1/rules/${encodeURIComponent(props.id)}`).then(res => { if (res.ok) setRule(res.data); else setMissing(res.error) })
  }, [props.id, turn])
  if (missing !== null) return <p class='error' role='alert'>{missing.message}</p>
  if (rule === undefined) return <p>Loading rule {props.id}…</p>
  const saved = () => { setTurn(t => t + 1); props.onSaved() }
  return (
    <section aria-labelledby='rule-title' class='rule-view'>
      <RuleEditor rule={rule ?? undefined} session={props.session} onSaved={saved} onExpression={setDraft} />
      {rule !== null && <History history={rule.history} session={props.session} />}
      {rule !== null && <BacktestForm id={rule.id} expression={draft ?? rule.expression} />}
    </section>
  )
}

function RuleEditor (props: { rule: Rule | undefined, session: Session, onSaved: () => void, onExpression: (draft: string) => void }) {
  const r = props.rule
  const { route } = useLocation()
  const mayWrite = can(props.session, 'rules:write')
  const [id, setId] = useState(r?.id ?? '')
  const [name, setName] = useState(r?.name ?? '')
  const [expression, setExpression] = useState(r?.expression ?? '')
  const [action, setAction] = useState(r?.action ?? 'flag')
  const [ruleMode, setRuleMode] = useState(r?.mode ?? 'shadow')
  const [priority, setPriority] = useState(String(r?.priority ?? 100))
  const [ruleStatus, setRuleStatus] = useState(r?.status ?? 'active')
  const [error, setError] = useState<ApiErrorBody | null>(null)
  const [saved, setSaved] = useState<string | null>(null)
  const checking = useRef(0)

  // As one types, the service checks the draft (debounced) as it will when saving: syntax and cost, fields a
  // request never has, a field compared with the other type, a list the tenant lacks; at line and column.
  useEffect(() => {
    if (expression.trim() === '') return
    const turn = ++checking.current
    const timer = setTimeout(() => {
      void api<{ valid: boolean, error: { message: string, line: number, column: number } | null }>('POST', '/v1/rules/validate', { expression }).then(res => {
        if (turn !== checking.current || !res.ok) return
        if (res.data.error === null) setError(e => e?.param === 'expression' ? null : e)
        else setError(err('expression', `Line ${res.data.error.line}, column ${res.data.error.column}: ${res.data.error.message}`))
      })
    }, 250)
    return () => clearTimeout(timer)
  }, [expression])

  const save = async (e: Event) => {
    e.preventDefault()
    setSaved(null)
    if (r === undefined && !/^[a-z0-9_]{1,64}$/.test(id)) { setError(err('id', 'An id is 1 to 64 lower-case letters, digits or underscores.')); return }
    if (name.trim() === '') { setError(err('name', 'A rule needs a name.')); return }
    if (!/^[0-9]{1,7}$/.test(priority)) { setError(err('priority', 'The priority is a whole number from 0 to 1,000,000.')); return }
    const fields = { name, expression, action, mode: ruleMode, priority: Number(priority), status: ruleStatus }
    if (r !== undefined && Object.entries(fields).every(([k, v]) => r[k as keyof Rule] === v)) {
      setError(null); setSaved('Nothing changed: no new version.'); return
    }
    checking.current++ // a check still on its way answers for an older draft
    const res = await api<Rule>('POST', '/v1/rules', { id: r?.id ?? id, ...fields })
    if (!res.ok) { setError(res.error); return }
    setError(null)
    if (r === undefined) { route(`/dashboard/rules/${res.data.id}`); props.onSaved(); return }
    setSaved(`Saved as ruleset version ${res.data.ruleset_version}.`)
    props.onSaved()
  }
  const invalid = error?.param === 'expression'
  return (
    <>
      <h2 id='rule-title'>{r === undefined ? 'New rule' : `Rule ${r.id}`}</h2>
      <form onSubmit={save}>
        {r === undefined && <Field label='Id' name='id' value={id} onInput={setId} error={error} required maxLength={64} />}
        <Field label='Name' name='name' value={name} onInput={setName} error={error} required maxLength={200} />
        <div class='field'>
          <label for='f-expression'>Expression (CEL)</label>
          <textarea id='f-expression' class='code' rows={4} maxLength={4000} value={expression} readOnly={!mayWrite}
            onInput={e => { const v = (e.target as HTMLTextAreaElement).value; setExpression(v); props.onExpression(v); setSaved(null) }}
            aria-invalid={invalid} aria-describedby={invalid ? 'f-expression-error' : undefined} />
          {invalid && <p id='f-expression-error' class='error' role='alert'>{error.message}</p>}
        </div>
        <div class='filters'>
          <label>Action <select value={action} onChange={e => setAction((e.target as HTMLSelectElement).value)}><option>approve</option><option>flag</option><option>reject</option></select></label>
          <label>Mode <select value={ruleMode} onChange={e => setRuleMode((e.target as HTMLSelectElement).value)}><option>enforce</option><option>shadow</option></select></label>
          <label>Status <select value={ruleStatus} onChange={e => setRuleStatus((e.target as HTMLSelectElement).value)}><option>active</option><option>disabled</option></select></label>
        </div>
        <Field label='Priority (lower first)' name='priority' value={priority} onInput={setPriority} error={error} maxLength={7} />
        <FormError error={error} fields={['id', 'name', 'expression', 'priority']} />
        {saved !== null && <p role='status' class='secret'>{saved}</p>}
        {mayWrite && <button type='submit'>Save rule</button>}
      </form>
    </>
  )
}

const CHANGE_WORDS: Record<RuleChange, string> = {
  'rule.upserted': 'saved',
  'rollout.updated': 'rolled out (shadow)',
  'rollout.promoted': 'promoted (enforce)'
}

/** The rule in every version that changed it, newest first; one version's changes against the one before. */
function History (props: { history: HistoryEntry[], session: Session }) {
  const { history } = props
  const [diffAt, setDiffAt] = useState<string | null>(null)
  const at = diffAt === null ? -1 : history.findIndex(h => h.ruleset_version === diffAt)
  const diff = at < 0 ? [] : (() => {
    const before = history[at - 1]?.rule as Record<string, unknown> | undefined
    const after = history[at]!.rule as Record<string, unknown>
    return [...new Set([...Object.keys(before ?? {}), ...Object.keys(after)])].filter(k => JSON.stringify(before?.[k]) !== JSON.stringify(after[k])).map(k => [k, before?.[k], after[k]] as const)
  })()
  return (
    <section aria-labelledby='history-title'>
      <h3 id='history-title'>Version history</h3>
      <ol class='history' reversed>{[...history].reverse().map(h => (
        <li key={h.ruleset_version}>
          {h.ruleset_version}, {CHANGE_WORDS[h.change] ?? h.change}, {when(h.created)} by {byWhom(props.session, h.actor)}{' '}
          <button type='button' class='link' onClick={() => setDiffAt(h.ruleset_version)} aria-label={`Changes in ${h.ruleset_version}`}>changes</button>
        </li>
      ))}</ol>
      {at >= 0 && (
        <table class='diff stack'>
          <caption>Changes in {history[at]!.ruleset_version}</caption>
          <thead><tr><th scope='col'>Field</th><th scope='col'>Before</th><th scope='col'>After</th></tr></thead>
          <tbody>{diff.map(([k, a, b]) => <tr key={k}><th scope='row'>{k}</th><td data-label='Before'><del>{a === undefined ? '' : String(a)}</del></td><td data-label='After'><ins>{String(b)}</ins></td></tr>)}</tbody>
        </table>
      )}
    </section>
  )
}

function BacktestForm (props: { id: string, expression: string }) {
  const iso = (ms: number) => new Date(ms).toISOString().slice(0, 16)
  const [from, setFrom] = useState(iso(Date.now() - 7 * 86_400_000))
  const [to, setTo] = useState(iso(Date.now() + 60_000))
  const [result, setResult] = useState<Backtest | null>(null)
  const [error, setError] = useState<ApiErrorBody | null>(null)
  const run = async (e: Event) => {
    e.preventDefault()
    const [f, t] = [Date.parse(from + 'Z'), Date.parse(to + 'Z')]
    if (Number.isNaN(f)) { setError(err('from', 'Give a start time.')); return }
    if (Number.isNaN(t) || t <= f) { setError(err('to', 'The end must be after the start.')); return }
    const res = await api<Backtest>('POST', `/v1/rules/${props.id}/backtest`, { expression: props.expression, from: Math.floor(f / 1000), to: Math.floor(t / 1000) })
    if (res.ok) { setResult(res.data); setError(null) } else setError(res.error)
  }
  return (
    <section aria-labelledby='backtest-title'>
      <h3 id='backtest-title'>Backtest the expression above</h3>
      <form class='filters' onSubmit={run}>
        <Field label='From (UTC)' name='from' type='datetime-local' value={from} onInput={setFrom} error={error} />
        <Field label='To (UTC)' name='to' type='datetime-local' value={to} onInput={setTo} error={error} />
        <button type='submit'>Run backtest</button>
      </form>
      <FormError error={error} fields={['from', 'to']} />
      {result !== null && (
        <div data-testid='backtest-result'>
          <p>{result.matched} of {result.evaluated} decisions matched{result.errors > 0 ? `, ${result.errors} could not be evaluated` : ''}{result.truncated ? ' (stopped at the limit)' : ''}.</p>
          <Bars title='Matches by later outcome' data={Object.entries(result.matched_by_outcome)} />
          <Bars title='Matches by the action they got' data={Object.entries(result.matched_by_action)} />
        </div>
      )}
    </section>
  )
}
