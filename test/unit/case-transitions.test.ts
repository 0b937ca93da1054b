import { describe, expect, it } from 'vitest'
import { applyCaseCommand, type Transition } from '../../src/domain/cases/transitions.js'
import { caseEffects } from '../../src/domain/cases/effects.js'
import { ACTOR_NAME_MAX, CASE_MAX_BYTES, CASE_OUTCOMES, MAX_HISTORY, MAX_NOTES, NOTE_MAX_LENGTH, type Case, type CaseEntry, type CaseOutcome, type CaseSubjects } from '../../src/domain/cases/types.js'
import { stableEventId } from '../../src/domain/records/events.js'
import type { CaseCommand } from '../../src/domain/records/case-commands.js'

const CASE_ID = 'case_1'
const SUBJECTS: CaseSubjects = { user_id: 'u1', email: 'a@example.com', device_id: 'd1', ip: '203.0.113.9', card: 'fp_1' }

const base = (id: string, at_ms: number, actor = 'analyst:alice') => ({ id, tenant_id: 't1', mode: 'live' as const, case_id: CASE_ID, at_ms, actor })
const openCmd = (over: Partial<Extract<CaseCommand, { type: 'open' }>> = {}): CaseCommand =>
  ({ ...base('cmd_open', 1_000_000, 'rule:case-opener'), type: 'open', trace_id: 'trc_1', reason: 'velocity', opened_by: 'rule', rules: ['r_velocity'], subjects: SUBJECTS, ...over })
const assignCmd = (id: string, at_ms: number, assignee: string): CaseCommand => ({ ...base(id, at_ms), type: 'assign', assignee })
const dispositionCmd = (id: string, at_ms: number, outcome: CaseOutcome, demote_for_ms = 60_000, actor = 'analyst:bob'): CaseCommand =>
  ({ ...base(id, at_ms, actor), type: 'disposition', outcome, reason: `looks ${outcome}`, analyst: 'bob', demote_for_ms })

function accepted (t: Transition): { case: Case, entry: CaseEntry } {
  if (!t.accepted) throw new Error(`expected an accepted transition, got ${JSON.stringify(t.error)}`)
  return t
}
const open = (over?: Partial<Extract<CaseCommand, { type: 'open' }>>) => accepted(applyCaseCommand(undefined, openCmd(over))).case
const closedWith = (outcome: CaseOutcome) => accepted(applyCaseCommand(open(), dispositionCmd('cmd_first', 2_000_000, outcome))).case
/** Deep copy, to check a transition leaves its input untouched. */
const snapshot = (c: Case): Case => JSON.parse(JSON.stringify(c)) as Case

describe('case transitions: open', () => {
  it('opens a new case in `open`, version 1, with one `opened` history entry carrying actor and time', () => {
    const t = accepted(applyCaseCommand(undefined, openCmd()))
    const entry: CaseEntry = { command_id: 'cmd_open', type: 'opened', at_ms: 1_000_000, actor: 'rule:case-opener', reason: 'velocity' }
    expect(t.entry).toEqual(entry)
    expect(t.case).toEqual({
      id: CASE_ID,
      tenant_id: 't1',
      mode: 'live',
      trace_id: 'trc_1',
      status: 'open',
      outcome: null,
      assignee: null,
      reason: 'velocity',
      opened_by: 'rule',
      rules: ['r_velocity'],
      score: null,
      subjects: SUBJECTS,
      created_ms: 1_000_000,
      updated_ms: 1_000_000,
      version: 1,
      history: [entry]
    })
  })

  it('keeps a null trace id and analyst as opener', () => {
    const c = open({ trace_id: null, opened_by: 'analyst', rules: [] })
    expect(c.trace_id).toBeNull()
    expect(c.opened_by).toBe('analyst')
    expect(c.rules).toEqual([])
  })

  it('refuses a second open of the same case with 409 resource_exists', () => {
    const t = applyCaseCommand(open(), openCmd({ id: 'cmd_open_again' }))
    expect(t.accepted).toBe(false)
    if (t.accepted) return
    expect(t.error.status).toBe(409)
    expect(t.error.code).toBe('resource_exists')
    expect(t.error.message).toContain(CASE_ID)
  })

  it('refuses assign and disposition of a case that does not exist with 404 resource_missing', () => {
    for (const cmd of [assignCmd('cmd_a', 2_000_000, 'alice'), dispositionCmd('cmd_d', 2_000_000, 'fraud')]) {
      const t = applyCaseCommand(undefined, cmd)
      expect(t).toEqual({ accepted: false, error: { status: 404, code: 'resource_missing', message: `No such case: '${CASE_ID}'.` } })
    }
  })
})

describe('case transitions: assign', () => {
  it('moves an open case to in_review with the assignee, bumps version and updated_ms, appends an `assigned` entry', () => {
    const before = open()
    const copy = snapshot(before)
    const t = accepted(applyCaseCommand(before, assignCmd('cmd_assign', 1_500_000, 'alice')))
    expect(t.case.status).toBe('in_review')
    expect(t.case.assignee).toBe('alice')
    expect(t.case.outcome).toBeNull()
    expect(t.case.version).toBe(2)
    expect(t.case.created_ms).toBe(1_000_000)
    expect(t.case.updated_ms).toBe(1_500_000)
    expect(t.entry).toEqual({ command_id: 'cmd_assign', type: 'assigned', at_ms: 1_500_000, actor: 'analyst:alice', assignee: 'alice' })
    expect(t.case.history).toEqual([...before.history, t.entry])
    expect(before).toEqual(copy)
  })

  it('reassigns a case already in review', () => {
    const first = accepted(applyCaseCommand(open(), assignCmd('cmd_a1', 1_500_000, 'alice'))).case
    const t = accepted(applyCaseCommand(first, assignCmd('cmd_a2', 1_600_000, 'carol')))
    expect(t.case.status).toBe('in_review')
    expect(t.case.assignee).toBe('carol')
    expect(t.case.version).toBe(3)
    expect(t.case.history.map(e => [e.type, e.assignee])).toEqual([['opened', undefined], ['assigned', 'alice'], ['assigned', 'carol']])
  })

  it.each(CASE_OUTCOMES)('refuses assign on a case closed as %s with 409 case_closed', outcome => {
    const closed = closedWith(outcome)
    const t = applyCaseCommand(closed, assignCmd('cmd_late', 3_000_000, 'alice'))
    expect(t.accepted).toBe(false)
    if (t.accepted) return
    expect(t.error).toMatchObject({ status: 409, code: 'case_closed' })
  })
})

describe('case transitions: disposition', () => {
  const starts = {
    open: () => open(),
    in_review: () => accepted(applyCaseCommand(open(), assignCmd('cmd_assign', 1_500_000, 'alice'))).case
  }

  for (const [from, make] of Object.entries(starts)) {
    it.each(CASE_OUTCOMES)(`closes an ${from} case with outcome %s`, outcome => {
      const before = make()
      const copy = snapshot(before)
      const t = accepted(applyCaseCommand(before, dispositionCmd('cmd_disp', 2_000_000, outcome, 86_400_000)))
      expect(t.case.status).toBe('closed')
      expect(t.case.outcome).toBe(outcome)
      expect(t.case.assignee).toBe(before.assignee)
      expect(t.case.version).toBe(before.version + 1)
      expect(t.case.updated_ms).toBe(2_000_000)
      expect(t.case.created_ms).toBe(1_000_000)
      const entry: CaseEntry = { command_id: 'cmd_disp', type: 'dispositioned', at_ms: 2_000_000, actor: 'analyst:bob', outcome, reason: `looks ${outcome}`, analyst: 'bob' }
      // Only a safe outcome demotes later flags of the subjects, until at_ms + demote_for_ms.
      if (outcome === 'safe') entry.demote_until_ms = 2_000_000 + 86_400_000
      expect(t.entry).toEqual(entry)
      expect(t.case.history).toEqual([...before.history, entry])
      expect(before).toEqual(copy)
    })
  }

  it.each(['safe', 'fraud'] as const)('accepts a chargeback after a %s outcome: closed(chargeback), history kept', first => {
    const closed = closedWith(first)
    const t = accepted(applyCaseCommand(closed, dispositionCmd('cmd_cb', 5_000_000, 'chargeback', 60_000, 'system:chargebacks')))
    expect(t.case.status).toBe('closed')
    expect(t.case.outcome).toBe('chargeback')
    expect(t.case.version).toBe(3)
    expect(t.case.updated_ms).toBe(5_000_000)
    expect(t.entry).toMatchObject({ type: 'dispositioned', outcome: 'chargeback', actor: 'system:chargebacks', at_ms: 5_000_000 })
    expect(t.entry.demote_until_ms).toBeUndefined()
    expect(t.case.history.map(e => e.outcome)).toEqual([undefined, first, 'chargeback'])
  })

  const refused: Array<[CaseOutcome, CaseOutcome]> = [
    ['fraud', 'fraud'], ['fraud', 'safe'],
    ['safe', 'safe'], ['safe', 'fraud'],
    ['chargeback', 'chargeback'], ['chargeback', 'fraud'], ['chargeback', 'safe']
  ]
  it.each(refused)('refuses a disposition on a case closed as %s with outcome %s: 409 invalid_transition', (first, second) => {
    const closed = closedWith(first)
    const copy = snapshot(closed)
    const t = applyCaseCommand(closed, dispositionCmd('cmd_again', 6_000_000, second))
    expect(t.accepted).toBe(false)
    if (t.accepted) return
    expect(t.error.status).toBe(409)
    expect(t.error.code).toBe('invalid_transition')
    expect(t.error.message).toContain(`'${first}'`)
    expect(closed).toEqual(copy)
  })

  it('refuses an outcome outside CASE_OUTCOMES itself, whoever sent the command (409 invalid_transition)', () => {
    expect(CASE_OUTCOMES).toEqual(['fraud', 'safe', 'chargeback'])
    const t = applyCaseCommand(open(), dispositionCmd('cmd_odd', 2_000_000, 'stolen' as CaseOutcome))
    expect(t.accepted).toBe(false)
    if (t.accepted) return
    expect(t.error).toMatchObject({ status: 409, code: 'invalid_transition' })
    expect(t.error.message).toContain("'stolen'")
  })
})

describe('case effects', () => {
  it('an opened case publishes case.created with a stable id derived from the command id, no label, no deny-list items', () => {
    const t = accepted(applyCaseCommand(undefined, openCmd({ at_ms: 1_000_999 })))
    const effects = caseEffects(t.case, t.entry)
    expect(effects).toEqual({
      events: [{
        id: stableEventId('case.created', 'cmd_open'),
        type: 'case.created',
        created: 1000,
        livemode: true,
        data: { case_id: CASE_ID, trace_id: 'trc_1', status: 'open', opened_by: 'rule', reason: 'velocity', rules: ['r_velocity'], subjects: SUBJECTS }
      }],
      label: undefined,
      denyListItems: []
    })
    expect(effects.events[0]!.id).toMatch(/^evt_[0-9a-f]{24}$/)
  })

  it('event ids depend on the command id and event type only, so a replayed command gives the same ids', () => {
    const first = accepted(applyCaseCommand(undefined, openCmd()))
    const again = accepted(applyCaseCommand(undefined, openCmd()))
    const other = accepted(applyCaseCommand(undefined, openCmd({ id: 'cmd_open_2' })))
    expect(caseEffects(again.case, again.entry).events[0]!.id).toBe(caseEffects(first.case, first.entry).events[0]!.id)
    expect(caseEffects(other.case, other.entry).events[0]!.id).not.toBe(caseEffects(first.case, first.entry).events[0]!.id)
    const closed = accepted(applyCaseCommand(first.case, dispositionCmd('cmd_open', 2_000_000, 'fraud')))
    // Same command id, different event type: a different id.
    expect(caseEffects(closed.case, closed.entry).events[0]!.id).not.toBe(caseEffects(first.case, first.entry).events[0]!.id)
  })

  it('a replay of an earlier entry against the case\'s later state gives the effects it gave at the time', () => {
    const opened = accepted(applyCaseCommand(undefined, openCmd()))
    const fraud = accepted(applyCaseCommand(opened.case, dispositionCmd('cmd_fraud', 2_000_000, 'fraud')))
    const chargeback = accepted(applyCaseCommand(fraud.case, dispositionCmd('cmd_cb', 3_000_000, 'chargeback')))
    expect(caseEffects(chargeback.case, opened.entry)).toEqual(caseEffects(opened.case, opened.entry))
    expect(caseEffects(chargeback.case, fraud.entry)).toEqual(caseEffects(fraud.case, fraud.entry))
  })

  it('an assignment has no effects', () => {
    const t = accepted(applyCaseCommand(open(), assignCmd('cmd_assign', 1_500_000, 'alice')))
    expect(caseEffects(t.case, t.entry)).toEqual({ events: [], label: undefined, denyListItems: [] })
  })

  const expected: Record<CaseOutcome, { label: 0 | 1, deny: boolean }> = {
    fraud: { label: 1, deny: true },
    chargeback: { label: 1, deny: true },
    safe: { label: 0, deny: false }
  }
  it.each(CASE_OUTCOMES)('a %s disposition publishes case.dispositioned, its feedback label and its deny-list items', outcome => {
    const t = accepted(applyCaseCommand(open(), dispositionCmd('cmd_disp', 2_500_500, outcome)))
    const effects = caseEffects(t.case, t.entry)
    expect(effects.events).toEqual([{
      id: stableEventId('case.dispositioned', 'cmd_disp'),
      type: 'case.dispositioned',
      created: 2500,
      livemode: true,
      data: { case_id: CASE_ID, trace_id: 'trc_1', outcome, reason: `looks ${outcome}`, analyst: 'bob' }
    }])
    expect(effects.label).toEqual({ tenant_id: 't1', livemode: true, trace_id: 'trc_1', case_id: CASE_ID, outcome, label: expected[outcome].label, labeled_at_ms: 2_500_500 })
    // The ip is never deny-listed (too often shared); the order is user, email, device, card.
    expect(effects.denyListItems).toEqual(expected[outcome].deny
      ? [['deny_users', 'u1'], ['deny_emails', 'a@example.com'], ['deny_devices', 'd1'], ['deny_cards', 'fp_1']]
      : [])
  })

  it('a chargeback after safe labels the transaction 1 and deny-lists its subjects', () => {
    const safe = closedWith('safe')
    const t = accepted(applyCaseCommand(safe, dispositionCmd('cmd_cb', 4_000_000, 'chargeback')))
    const effects = caseEffects(t.case, t.entry)
    expect(effects.events.map(e => [e.type, e.data.outcome])).toEqual([['case.dispositioned', 'chargeback']])
    expect(effects.label).toMatchObject({ outcome: 'chargeback', label: 1, labeled_at_ms: 4_000_000 })
    expect(effects.denyListItems).toHaveLength(4)
  })

  it('deny-lists only the subjects the case has', () => {
    const c = open({ subjects: { email: 'x@example.com', ip: '198.51.100.1' } })
    const t = accepted(applyCaseCommand(c, dispositionCmd('cmd_disp', 2_000_000, 'fraud')))
    expect(caseEffects(t.case, t.entry).denyListItems).toEqual([['deny_emails', 'x@example.com']])
  })

  it('gives no feedback label to a case without a trace id, but still its event and deny-list items', () => {
    const c = open({ trace_id: null, opened_by: 'analyst' })
    const t = accepted(applyCaseCommand(c, dispositionCmd('cmd_disp', 2_000_000, 'fraud')))
    const effects = caseEffects(t.case, t.entry)
    expect(effects.label).toBeUndefined()
    expect(effects.events).toHaveLength(1)
    expect(effects.events[0]!.data.trace_id).toBeNull()
    expect(effects.denyListItems).toHaveLength(4)
  })

  it('marks events and labels of a test-mode case livemode false', () => {
    const opened = accepted(applyCaseCommand(undefined, { ...openCmd(), mode: 'test' }))
    expect(caseEffects(opened.case, opened.entry).events[0]!.livemode).toBe(false)
    const t = accepted(applyCaseCommand(opened.case, { ...dispositionCmd('cmd_disp', 2_000_000, 'safe'), mode: 'test' }))
    const effects = caseEffects(t.case, t.entry)
    expect(effects.events[0]!.livemode).toBe(false)
    expect(effects.label!.livemode).toBe(false)
  })
})

describe('case transitions: what one case may hold', () => {
  const note = (c: Case, i: number, body: string) => applyCaseCommand(c, { ...base(`cmd_note_${i}`, 3_000_000 + i), type: 'note', body })

  it('keeps notes in any status, with their author, without changing the status', () => {
    const c = accepted(note(closedWith('fraud'), 0, 'after the fact')).case
    expect(c).toMatchObject({ status: 'closed', outcome: 'fraud' })
    expect(c.history.at(-1)).toMatchObject({ type: 'noted', body: 'after the fact', actor: 'analyst:alice' })
    expect(caseEffects(c, c.history.at(-1)!)).toEqual({ events: [], label: undefined, denyListItems: [] })
  })

  it('refuses a note past MAX_NOTES, and assignments and notes past MAX_HISTORY or CASE_MAX_BYTES, however its users write', () => {
    let c = open()
    for (let i = 0; i < MAX_NOTES; i++) c = accepted(note(c, i, 'n')).case
    expect(note(c, MAX_NOTES, 'one more')).toMatchObject({ accepted: false, error: { status: 409, code: 'case_note_limit' } })

    // Characters JSON writes as six bytes each (\\u0001), in notes, long assignee names and a long actor name:
    // the byte bound refuses the change that would cross it, long before the counts.
    let heavy = open()
    const odd = '\u0001'
    let i = 0
    for (; i < MAX_HISTORY; i++) {
      const t = i % 2 === 0
        ? note(heavy, i, odd.repeat(NOTE_MAX_LENGTH))
        : applyCaseCommand(heavy, { ...base(`cmd_as_${i}`, 3_000_000 + i), actor_name: odd.repeat(200), type: 'assign', assignee: odd.repeat(200) })
      if (!t.accepted) { expect(t.error.code).toMatch(/^case_(history_full|note_limit)$/); break }
      heavy = t.case
    }
    expect(i).toBeLessThan(MAX_NOTES)
    const bytes = (c: Case) => new TextEncoder().encode(JSON.stringify(c)).length
    expect(bytes(heavy)).toBeLessThanOrEqual(CASE_MAX_BYTES)
    expect(heavy.history.filter(e => e.actor_name !== undefined).every(e => e.actor_name!.length === ACTOR_NAME_MAX)).toBe(true)
    // Still closed, and charged back, past the bound: two dispositions, each a few kilobytes at most.
    const closedHeavy = accepted(applyCaseCommand(heavy, { ...base('cmd_hd', 9_000_000), type: 'disposition', outcome: 'fraud', reason: odd.repeat(1000), analyst: odd.repeat(200), demote_for_ms: 0 })).case
    const charged = accepted(applyCaseCommand(closedHeavy, { ...base('cmd_hc', 9_100_000), type: 'disposition', outcome: 'chargeback', reason: odd.repeat(1000), analyst: odd.repeat(200), demote_for_ms: 0 })).case
    expect(bytes(charged)).toBeLessThan(CASE_MAX_BYTES + 20_000)

    let busy = open()
    for (let n = 1; n < MAX_HISTORY; n++) busy = accepted(applyCaseCommand(busy, assignCmd(`cmd_a${n}`, 2_000_000 + n, `analyst-${n % 7}`))).case
    expect(busy.history).toHaveLength(MAX_HISTORY)
    expect(applyCaseCommand(busy, assignCmd('cmd_last', 9_000_000, 'x'))).toMatchObject({ accepted: false, error: { status: 409, code: 'case_history_full' } })
    expect(note(busy, 0, 'x')).toMatchObject({ accepted: false, error: { code: 'case_history_full' } })
    // A full case can still be closed, and charged back: at most two dispositions ever.
    const closed = accepted(applyCaseCommand(busy, dispositionCmd('cmd_d', 9_000_000, 'fraud'))).case
    expect(accepted(applyCaseCommand(closed, dispositionCmd('cmd_cb', 9_100_000, 'chargeback'))).case.history).toHaveLength(MAX_HISTORY + 2)
  })
})
