import { useEffect, useState } from 'preact/hooks'
import { api, can, when, type ApiErrorBody, type Session } from '../api.js'
import { Field, FormError } from '../components/form.js'
import { byWhom, err, type Hits } from './rules-shared.js'

interface StopConditions { max_hit_rate?: number, min_decisions?: number, min_precision?: number, min_matured_hits?: number }
interface Stopped {
  reason: 'hit_rate' | 'precision' | 'stop_requested' | 'promoted'
  at: number
  actor?: string
  hit_rate?: number
  precision?: number | null
  decisions?: number
  hits?: number
  matured_hits?: number
  matured_frauds?: number
}
interface Rollout { id: string | null, pack: string, rule_ids: string[], percentage: number, status: 'running' | 'stopped', stop_conditions: StopConditions | null, stopped: Stopped | null }
interface RuleInfo { id: string, name: string, mode: string, status: string }
interface Draft { pack: string, rule_ids: string[], percentage: number, stop_conditions?: StopConditions }
/** The rules that decide now a rollout would move to shadow, held until the user confirms or cancels. */
interface Demotion { draft: Draft, rules: RuleInfo[] }

const percent = (share: number) => share.toLocaleString('en-US', { style: 'percent', maximumFractionDigits: 1 })
const count = (n: number) => n.toLocaleString('en-US')

/** A run's stop conditions in words (the defaults the guard applies when a minimum is not given, docs/rules.md). */
export function conditionsText (c: StopConditions | null): string {
  if (c === null) return 'None'
  const parts: string[] = []
  if (c.max_hit_rate !== undefined) parts.push(`hit rate above ${percent(c.max_hit_rate)} after ${count(c.min_decisions ?? 1000)} decisions`)
  if (c.min_precision !== undefined) parts.push(`precision below ${percent(c.min_precision)} after ${count(c.min_matured_hits ?? 30)} matured hits`)
  return parts.length === 0 ? 'None' : `Stops on ${parts.join('; or ')}`
}

/** A run's status and, once stopped, why, when and by whom. */
export function statusText (r: Rollout, session: Session): string {
  const s = r.stopped
  if (r.status === 'running') return 'Running'
  if (s === null) return 'Stopped'
  const at = when(s.at)
  switch (s.reason) {
    case 'hit_rate': return `Stopped by its guard ${at}: hit rate ${percent(s.hit_rate ?? 0)} (${count(s.hits ?? 0)} of ${count(s.decisions ?? 0)} decisions) above ${percent(r.stop_conditions?.max_hit_rate ?? 0)}`
    case 'precision': return `Stopped by its guard ${at}: precision ${percent(s.precision ?? 0)} (${count(s.matured_frauds ?? 0)} frauds of ${count(s.matured_hits ?? 0)} matured hits) below ${percent(r.stop_conditions?.min_precision ?? 0)}`
    case 'stop_requested': return `Stopped by ${byWhom(session, s.actor ?? '?')} ${at}`
    case 'promoted': return `Promoted to enforce by ${byWhom(session, s.actor ?? '?')} ${at}`
  }
}

/** The pack's current run over the last 24 h, from GET /v1/rules/hits. */
function hitRateText (r: Rollout, hits: Hits | null): string {
  if (hits === null) return '…'
  const p = hits.packs[r.pack]
  if (p === undefined || p.rollout_id !== r.id || p.decisions === 0) return 'No decisions yet'
  return `${percent(p.hits / p.decisions)} (${count(p.hits)} of ${count(p.decisions)})`
}

/**
 * Shadow rollouts: each pack's share, hit rate over the last 24 h, stop conditions, status and why it stopped,
 * with stop and promote; and a form that rolls a pack out. Rolling out rules that decide now is refused by the
 * service (rollout_demotes_enforced) until the user, shown those rules and their hits of the last 24 h, confirms.
 */
export function Rollouts (props: { session: Session, hits: Hits | null, onChanged: () => void }) {
  const mayWrite = can(props.session, 'rules:write')
  const [rollouts, setRollouts] = useState<Rollout[]>([])
  const [pack, setPack] = useState('')
  const [ruleIds, setRuleIds] = useState('')
  const [percentage, setPercentage] = useState('10')
  const [maxHitRate, setMaxHitRate] = useState('')
  const [minPrecision, setMinPrecision] = useState('')
  const [error, setError] = useState<ApiErrorBody | null>(null)
  const [demotion, setDemotion] = useState<Demotion | null>(null)
  const [asked, setAsked] = useState<{ pack: string, act: 'stop' | 'promote' } | null>(null)
  const [done, setDone] = useState<string | null>(null)
  const [version, setVersion] = useState(0)
  useEffect(() => {
    void api<{ data: Rollout[] }>('GET', '/v1/rules/rollout').then(res => { if (res.ok) setRollouts(res.data.data) })
  }, [version])
  const changed = (message: string) => { setDone(message); setVersion(v => v + 1); props.onChanged() }

  const send = async (draft: Draft, demote: boolean) => {
    const res = await api<Rollout>('POST', '/v1/rules/rollout', { ...draft, ...(demote ? { demote_enforced: true } : {}) })
    if (res.ok) { setError(null); setDemotion(null); changed(`Pack ${draft.pack} rolled out to ${draft.percentage}%.`); return }
    if (res.error.code !== 'rollout_demotes_enforced') { setError(res.error); return }
    // Which of the named rules decide now: read each (the list may be filtered or paged).
    const read = await Promise.all(draft.rule_ids.map(id => api<RuleInfo>('GET', `/v1/rules/${encodeURIComponent(id)}`)))
    const deciding = read.flatMap(r => r.ok && r.data.mode === 'enforce' && r.data.status === 'active' ? [r.data] : [])
    setError(null)
    setDemotion({ draft, rules: deciding })
  }

  const submit = async (e: Event) => {
    e.preventDefault()
    setDone(null)
    const p = Number(percentage)
    if (!/^[a-z0-9_]{1,64}$/.test(pack)) { setError(err('pack', 'A pack name is 1 to 64 lower-case letters, digits or underscores.')); return }
    const ids = ruleIds.split(',').map(s => s.trim()).filter(s => s !== '')
    if (ids.length === 0) { setError(err('rule_ids', 'Name at least one rule.')); return }
    if (percentage.trim() === '' || !(p >= 0 && p <= 100)) { setError(err('percentage', 'A percentage from 0 to 100.')); return }
    const share = (text: string, param: string): number | undefined | ApiErrorBody => {
      if (text.trim() === '') return undefined
      const v = Number(text)
      return v >= 0 && v <= 100 ? v / 100 : err(param, 'A percentage from 0 to 100, or nothing.')
    }
    const hitRate = share(maxHitRate, 'max_hit_rate')
    const precision = share(minPrecision, 'min_precision')
    for (const v of [hitRate, precision]) if (typeof v === 'object') { setError(v); return }
    const conditions = { ...(hitRate === undefined ? {} : { max_hit_rate: hitRate as number }), ...(precision === undefined ? {} : { min_precision: precision as number }) }
    await send({ pack, rule_ids: ids, percentage: p, ...(Object.keys(conditions).length === 0 ? {} : { stop_conditions: conditions }) }, false)
  }

  const act = async (target: string, what: 'stop' | 'promote') => {
    const res = await api<Rollout>('POST', `/v1/rules/rollout/${encodeURIComponent(target)}/${what}`)
    setAsked(null)
    if (!res.ok) { setError(res.error); return }
    setError(null)
    changed(what === 'stop' ? `Pack ${target} stopped: its rules run for no one.` : `Pack ${target} promoted: ${res.data.rule_ids.join(', ')} now decide for every request.`)
  }
  const askedPack = asked === null ? undefined : rollouts.find(r => r.pack === asked.pack)

  return (
    <section aria-labelledby='rollout-title'>
      <h2 id='rollout-title'>Shadow rollouts</h2>
      {rollouts.length === 0 ? <p>No rollouts.</p> : (
        <table class='rollouts stack'><caption class='visually-hidden'>Rollouts, with their hit rate over the last 24 h</caption>
          <thead><tr><th scope='col'>Pack</th><th scope='col'>Rules</th><th scope='col'>Share of traffic</th><th scope='col'>Hit rate (24 h)</th><th scope='col'>Stop conditions</th><th scope='col'>Status</th>{mayWrite && <th scope='col'>Actions</th>}</tr></thead>
          <tbody>{rollouts.map(r => (
            <tr key={r.pack}>
              <td data-label='Pack'>{r.pack}</td>
              <td data-label='Rules'>{r.rule_ids.length === 0 ? 'none left' : r.rule_ids.join(', ')}</td>
              <td data-label='Share of traffic'>{r.percentage}%</td>
              <td data-label='Hit rate (24 h)'>{hitRateText(r, props.hits)}</td>
              <td data-label='Stop conditions'>{conditionsText(r.stop_conditions)}</td>
              <td data-label='Status'>{statusText(r, props.session)}</td>
              {mayWrite && (
                <td class='actions'>
                  {r.status === 'running' && <button type='button' class='secondary' onClick={() => setAsked({ pack: r.pack, act: 'stop' })} aria-label={`Stop ${r.pack}`}>Stop</button>}
                  {r.stopped?.reason !== 'promoted' && r.rule_ids.length > 0 && <button type='button' onClick={() => setAsked({ pack: r.pack, act: 'promote' })} aria-label={`Promote ${r.pack}`}>Promote</button>}
                </td>
              )}
            </tr>
          ))}</tbody>
        </table>
      )}
      {asked !== null && askedPack !== undefined && (
        <div class='confirm' role='group' aria-labelledby='confirm-title'>
          <p id='confirm-title'>
            {asked.act === 'stop'
              ? `Stop pack ${asked.pack}? Its rules (${askedPack.rule_ids.join(', ')}) will run for no one until it is rolled out again.`
              : `Promote pack ${asked.pack}? Its rules (${askedPack.rule_ids.join(', ')}) will decide for every request (enforce), no longer in shadow.`}
          </p>
          <button type='button' onClick={() => { void act(asked.pack, asked.act) }}>{asked.act === 'stop' ? `Stop ${asked.pack}` : `Promote ${asked.pack} to enforce`}</button>
          <button type='button' class='secondary' onClick={() => setAsked(null)}>Cancel</button>
        </div>
      )}
      {done !== null && <p role='status' class='secret'>{done}</p>}
      {demotion !== null && (
        <div class='confirm warning' role='alert' aria-labelledby='demote-title'>
          <p id='demote-title'><strong>{demotion.rules.length === 1 ? 'This rule decides now' : 'These rules decide now'}.</strong> Rolling out pack {demotion.draft.pack} moves {demotion.rules.length === 1 ? 'it' : 'them'} to shadow: {demotion.rules.length === 1 ? 'it' : 'they'} would stop deciding and only report.</p>
          <ul>{demotion.rules.map(r => (
            <li key={r.id}><strong>{r.id}</strong> ({r.name}): {count(props.hits?.hits[r.id]?.enforce ?? 0)} hits in the last 24 h</li>
          ))}</ul>
          <button type='button' onClick={() => { void send(demotion.draft, true) }}>Roll out and move {demotion.rules.length === 1 ? 'it' : 'them'} to shadow</button>
          <button type='button' class='secondary' onClick={() => setDemotion(null)}>Cancel</button>
        </div>
      )}
      {mayWrite && (
        <form onSubmit={submit} aria-label='Roll out a pack'>
          <div class='filters'>
            <Field label='Pack' name='pack' value={pack} onInput={setPack} error={error} maxLength={64} />
            <Field label='Rules (comma-separated ids)' name='rule_ids' value={ruleIds} onInput={setRuleIds} error={error} />
            <Field label='Percentage' name='percentage' value={percentage} onInput={setPercentage} error={error} maxLength={6} />
            <Field label='Stop above hit rate (%)' name='max_hit_rate' value={maxHitRate} onInput={setMaxHitRate} error={error} maxLength={6} />
            <Field label='Stop below precision (%)' name='min_precision' value={minPrecision} onInput={setMinPrecision} error={error} maxLength={6} />
          </div>
          <FormError error={error} fields={['pack', 'rule_ids', 'percentage', 'max_hit_rate', 'min_precision']} />
          <button type='submit'>Set rollout</button>
        </form>
      )}
    </section>
  )
}
