import { useEffect, useRef, useState } from 'preact/hooks'
import { api, can, when, type ApiErrorBody, type Session } from '../api.js'
import { Field, FormError, Page } from '../components/form.js'
import { Bars } from '../components/bars.js'
import { Lists } from './lists.js'

interface Rule { id: string, name: string, expression: string, action: string, mode: string, priority: number, status: string, description?: string, ruleset_version: string }
interface HistoryEntry { ruleset_version: string, created: number, actor: string, rule: Omit<Rule, 'ruleset_version'> }
interface Hits { hits: Record<string, { enforce: number, shadow: number }>, decisions: number }
interface Backtest { evaluated: number, matched: number, errors: number, truncated: boolean, matched_by_outcome: Record<string, number>, matched_by_action: Record<string, number> }
interface Rollout { pack: string, rule_ids: string[], percentage: number, status: string }

const err = (param: string, message: string): ApiErrorBody => ({ type: 'invalid_request_error', code: 'parameter_invalid', message, param })

/** Rules by mode and status with their hits of the last 24 h; one rule's editor, history, backtest; rollouts; lists. */
export function Rules (props: { session: Session, id?: string }) {
  const [mode, setMode] = useState('')
  const [status, setStatus] = useState('')
  const [rules, setRules] = useState<Rule[] | null>(null)
  const [hits, setHits] = useState<Hits | null>(null)
  const [error, setError] = useState<ApiErrorBody | null>(null)
  const [version, setVersion] = useState(0)
  useEffect(() => {
    const q = new URLSearchParams({ limit: '100' })
    if (mode !== '') q.set('mode', mode)
    if (status !== '') q.set('status', status)
    void api<{ data: Rule[] }>('GET', `/v1/rules?${q}`).then(res => { if (res.ok) setRules(res.data.data); else setError(res.error) })
    void api<Hits>('GET', '/v1/rules/hits?hours=24').then(res => { if (res.ok) setHits(res.data) })
  }, [mode, status, version])
  const selected = props.id === 'new' ? undefined : rules?.find(r => r.id === props.id)
  return (
    <Page title='Rules and lists'>
      <form class='filters' aria-label='Filters' onSubmit={e => e.preventDefault()}>
        <label>Mode <select value={mode} onChange={e => setMode((e.target as HTMLSelectElement).value)}><option value=''>All</option><option value='enforce'>Enforce</option><option value='shadow'>Shadow</option></select></label>
        <label>Status <select value={status} onChange={e => setStatus((e.target as HTMLSelectElement).value)}><option value=''>All</option><option value='active'>Active</option><option value='disabled'>Disabled</option></select></label>
        {can(props.session, 'rules:write') && <a class='button' href='/dashboard/rules/new'>New rule</a>}
      </form>
      {error !== null && <p class='error' role='alert'>{error.message}</p>}
      {rules !== null && (
        <table class='rules'>
          <caption>Rules ({hits === null ? '…' : `hits over the last 24 h, of ${hits.decisions} decisions`})</caption>
          <thead><tr><th scope='col'>Rule</th><th scope='col'>Name</th><th scope='col'>Action</th><th scope='col'>Mode</th><th scope='col'>Status</th><th scope='col'>Enforce hits</th><th scope='col'>Shadow hits</th></tr></thead>
          <tbody>{rules.map(r => (
            <tr key={r.id}>
              <td><a href={`/dashboard/rules/${r.id}`} aria-current={props.id === r.id ? 'page' : undefined}>{r.id}</a></td><td>{r.name}</td><td>{r.action}</td><td>{r.mode}</td><td>{r.status}</td>
              <td>{hits?.hits[r.id]?.enforce ?? 0}</td><td>{hits?.hits[r.id]?.shadow ?? 0}</td>
            </tr>
          ))}</tbody>
        </table>
      )}
      {(props.id === 'new' || selected !== undefined) && <RuleEditor key={props.id} rule={selected} session={props.session} onSaved={() => setVersion(v => v + 1)} />}
      <Rollouts session={props.session} />
      <Lists session={props.session} />
    </Page>
  )
}

function RuleEditor (props: { rule: Rule | undefined, session: Session, onSaved: () => void }) {
  const r = props.rule
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

  // CEL errors as one types: the service compiles the draft (debounced) and names line and column.
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
    if (r === undefined && !/^[a-z0-9_]{1,64}$/.test(id)) { setError(err('id', 'An id is 1 to 64 lower-case letters, digits or underscores.')); return }
    if (name.trim() === '') { setError(err('name', 'A rule needs a name.')); return }
    if (!/^[0-9]{1,7}$/.test(priority)) { setError(err('priority', 'The priority is a whole number from 0 to 1,000,000.')); return }
    if (error?.param === 'expression') return
    const res = await api<Rule>('POST', '/v1/rules', { id: r?.id ?? id, name, expression, action, mode: ruleMode, priority: Number(priority), status: ruleStatus })
    if (!res.ok) { setError(res.error); return }
    setError(null); setSaved(`Saved as ruleset version ${res.data.ruleset_version}.`); props.onSaved()
    if (r === undefined) location.assign(`/dashboard/rules/${res.data.id}`)
  }
  return (
    <section aria-labelledby='rule-title'>
      <h2 id='rule-title'>{r === undefined ? 'New rule' : `Rule ${r.id}`}</h2>
      <form onSubmit={save}>
        {r === undefined && <Field label='Id' name='id' value={id} onInput={setId} error={error} required maxLength={64} />}
        <Field label='Name' name='name' value={name} onInput={setName} error={error} required maxLength={200} />
        <div class='field'>
          <label for='f-expression'>Expression (CEL)</label>
          <textarea id='f-expression' class='code' rows={4} maxLength={4000} value={expression} readOnly={!mayWrite}
            onInput={e => setExpression((e.target as HTMLTextAreaElement).value)}
            aria-invalid={error?.param === 'expression'} aria-describedby={error?.param === 'expression' ? 'f-expression-error' : undefined} />
          {error?.param === 'expression' && <p id='f-expression-error' class='error' role='alert'>{error.message}</p>}
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
      {r !== undefined && <History id={r.id} />}
      {r !== undefined && <BacktestForm id={r.id} expression={expression} />}
    </section>
  )
}

function History (props: { id: string }) {
  const [history, setHistory] = useState<HistoryEntry[]>([])
  const [diffAt, setDiffAt] = useState<number | null>(null)
  useEffect(() => {
    void api<{ history: HistoryEntry[] }>('GET', `/v1/rules/${props.id}`).then(res => { if (res.ok) setHistory(res.data.history) })
  }, [props.id])
  const diff = diffAt === null ? [] : (() => {
    const before = history[diffAt - 1]?.rule as Record<string, unknown> | undefined
    const after = history[diffAt]!.rule as Record<string, unknown>
    return [...new Set([...Object.keys(before ?? {}), ...Object.keys(after)])].filter(k => JSON.stringify(before?.[k]) !== JSON.stringify(after[k])).map(k => [k, before?.[k], after[k]] as const)
  })()
  return (
    <section aria-labelledby='history-title'>
      <h3 id='history-title'>Version history</h3>
      <ol class='history'>{history.map((h, i) => (
        <li key={h.ruleset_version}>{h.ruleset_version}, {when(h.created)} by {h.actor} <button type='button' class='link' onClick={() => setDiffAt(i)} aria-label={`Changes in ${h.ruleset_version}`}>changes</button></li>
      ))}</ol>
      {diffAt !== null && (
        <table class='diff'>
          <caption>Changes in {history[diffAt]!.ruleset_version}</caption>
          <thead><tr><th scope='col'>Field</th><th scope='col'>Before</th><th scope='col'>After</th></tr></thead>
          <tbody>{diff.map(([k, a, b]) => <tr key={k}><th scope='row'>{k}</th><td><del>{a === undefined ? '' : String(a)}</del></td><td><ins>{String(b)}</ins></td></tr>)}</tbody>
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
    if (Number.isNaN(t) || t <= f) { setError(err('to', "The end must be after the start.")); return }
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

function Rollouts (props: { session: Session }) {
  const [rollouts, setRollouts] = useState<Rollout[]>([])
  const [pack, setPack] = useState('')
  const [ruleIds, setRuleIds] = useState('')
  const [percentage, setPercentage] = useState('10')
  const [error, setError] = useState<ApiErrorBody | null>(null)
  const [version, setVersion] = useState(0)
  useEffect(() => {
    void api<{ data: Rollout[] }>('GET', '/v1/rules/rollout').then(res => { if (res.ok) setRollouts(res.data.data) })
  }, [version])
  const submit = async (e: Event) => {
    e.preventDefault()
    const p = Number(percentage)
    if (!/^[a-z0-9_]{1,64}$/.test(pack)) { setError(err('pack', 'A pack name is 1 to 64 lower-case letters, digits or underscores.')); return }
    if (percentage.trim() === '' || !(p >= 0 && p <= 100)) { setError(err('percentage', 'A percentage from 0 to 100.')); return }
    const ids = ruleIds.split(',').map(s => s.trim()).filter(s => s !== '')
    if (ids.length === 0) { setError(err('rule_ids', 'Name at least one rule.')); return }
    const res = await api('POST', '/v1/rules/rollout', { pack, rule_ids: ids, percentage: p })
    if (res.ok) { setError(null); setVersion(v => v + 1) } else setError(res.error)
  }
  return (
    <section aria-labelledby='rollout-title'>
      <h2 id='rollout-title'>Shadow rollouts</h2>
      {rollouts.length === 0 ? <p>No rollouts.</p> : (
        <table><caption class='visually-hidden'>Rollouts</caption>
          <thead><tr><th scope='col'>Pack</th><th scope='col'>Rules</th><th scope='col'>Share of traffic</th><th scope='col'>Status</th></tr></thead>
          <tbody>{rollouts.map(r => <tr key={r.pack}><td>{r.pack}</td><td>{r.rule_ids.join(', ')}</td><td>{r.percentage} %</td><td>{r.status}</td></tr>)}</tbody>
        </table>
      )}
      {can(props.session, 'rules:write') && (
        <form onSubmit={submit}>
          <div class='filters'>
            <Field label='Pack' name='pack' value={pack} onInput={setPack} error={error} maxLength={64} />
            <Field label='Rules (comma-separated ids)' name='rule_ids' value={ruleIds} onInput={setRuleIds} error={error} />
            <Field label='Percentage' name='percentage' value={percentage} onInput={setPercentage} error={error} maxLength={6} />
          </div>
          <FormError error={error} fields={['pack', 'rule_ids', 'percentage']} />
          <button type='submit'>Set rollout</button>
        </form>
      )}
    </section>
  )
}
