import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { backtest, type BacktestReport } from '../../src/domain/rules/backtest.js'
import { compileRule } from '../../src/domain/rules/language.js'
import { compileList, type ListMatcher } from '../../src/domain/rules/lists.js'
import type { Action, ScoreRequest } from '../../src/domain/decision/types.js'
import type { CaseOutcome } from '../../src/domain/cases/types.js'
import { stableId } from '../../src/domain/ids.js'
import { openStateDb, type StateDb } from '../../src/stores/state-db.js'
import { putTransactionOp, transactionsBetween } from '../../src/stores/transactions.js'
import { writeBatchSync } from '../../src/stores/rocks.js'
import { encodeEvent, type TransactionRecord } from '../../src/domain/records/decisions.js'

const T0 = Date.parse('2026-03-01T12:00:00Z')

function record (traceId: string, action: Action, request: Partial<ScoreRequest>, over: Partial<TransactionRecord> = {}): TransactionRecord {
  return {
    trace_id: traceId,
    tenant_id: 'ten_bt',
    livemode: false,
    created_ms: T0,
    request: { event: 'payment', ...request },
    decision: { score: 0.5, risk_level: 'medium', action, signals: [], rules: [], trace_id: traceId, latency_ms: 1 },
    ruleset_version: 'rsv_1',
    model_version: 'm_1',
    features: {},
    base_action: action,
    override_gate: null,
    rule_errors: [],
    rollout_buckets: {},
    origin_id: 'origin_a',
    origin_seq: 1,
    ...over
  }
}

const outcomes = (m: Record<string, CaseOutcome>) => (traceId: string): CaseOutcome | undefined => m[traceId]
const noLists: Record<string, ListMatcher> = {}
const emptyReport = (): BacktestReport => ({
  evaluated: 0,
  matched: 0,
  errors: 0,
  matched_by_outcome: { fraud: 0, safe: 0, chargeback: 0, unlabeled: 0 },
  matched_by_action: { approve: 0, flag: 0, reject: 0 },
  sample_trace_ids: []
})

describe('backtest', () => {
  it('counts evaluated, matched and errored records and splits matches by action and by later case outcome', () => {
    const records = [
      record('t1', 'reject', { amount: 500 }), // match, fraud
      record('t2', 'flag', { amount: 150 }), // match, safe
      record('t3', 'approve', { amount: 50 }), // no match (its fraud label is not counted)
      record('t4', 'approve', { amount: 200 }), // match, unlabeled
      record('t5', 'flag', {}), // error: no amount
      record('t6', 'flag', { amount: 120 }), // match, chargeback
      record('t7', 'approve', { amount: 100 }) // match on the boundary, fraud
    ]
    const labels = outcomes({ t1: 'fraud', t2: 'safe', t3: 'fraud', t5: 'fraud', t6: 'chargeback', t7: 'fraud' })
    expect(backtest(compileRule('request.amount >= 100'), records, noLists, labels)).toEqual({
      evaluated: 7,
      matched: 5,
      errors: 1,
      matched_by_outcome: { fraud: 2, safe: 1, chargeback: 1, unlabeled: 1 },
      matched_by_action: { approve: 2, flag: 2, reject: 1 },
      sample_trace_ids: ['t1', 't2', 't4', 't6', 't7']
    })
  })

  it('asks for the outcome of matched records only', () => {
    const asked: string[] = []
    const records = [record('a', 'approve', { amount: 1 }), record('b', 'flag', { amount: 999 }), record('c', 'flag', {})]
    backtest(compileRule('request.amount > 10'), records, noLists, id => { asked.push(id); return undefined })
    expect(asked).toEqual(['b'])
  })

  it('counts an error per record whose evaluation fails and does not count it as a match', () => {
    const records = [
      record('e1', 'reject', { user_id: 'u1' }, { features: {} }),
      record('e2', 'reject', { user_id: 'u2' }, { features: { user_count_1h: 9 } }),
      record('e3', 'reject', { user_id: 'u3' }, { features: { user_count_1h: 1 } })
    ]
    const report = backtest(compileRule('velocity("user", "count", "1h") > 5.0'), records, noLists, outcomes({ e1: 'fraud' }))
    expect(report).toEqual({ ...emptyReport(), evaluated: 3, matched: 1, errors: 1, matched_by_outcome: { ...emptyReport().matched_by_outcome, unlabeled: 1 }, matched_by_action: { approve: 0, flag: 0, reject: 1 }, sample_trace_ids: ['e2'] })
  })

  it('evaluates with the recorded request and features, the lists given, and no signals (every signals read errors)', () => {
    const lists = { blocked_countries: compileList({ alias: 'blocked_countries', item_type: 'country', items: ['NG'] }) }
    const records = [
      record('l1', 'flag', { geo: { country: 'ng' } }),
      record('l2', 'approve', { geo: { country: 'FR' } })
    ]
    const byList = backtest(compileRule('in_list("blocked_countries", geo.country)'), records, lists, outcomes({}))
    expect(byList.matched).toBe(1)
    expect(byList.sample_trace_ids).toEqual(['l1'])
    // The same rule without the list: in_list of an unknown alias is false, not an error.
    expect(backtest(compileRule('in_list("blocked_countries", geo.country)'), records, noLists, outcomes({})).matched).toBe(0)
    const bySignal = backtest(compileRule('signals.sim_swap_confidence > 0.5'), records, lists, outcomes({}))
    expect(bySignal).toMatchObject({ evaluated: 2, matched: 0, errors: 2 })
  })

  it('treats a non-bool result as an error', () => {
    const records = [record('d1', 'approve', { custom: { flag: 'yes' } }), record('d2', 'approve', { custom: { flag: true } })]
    const report = backtest(compileRule('custom.flag'), records, noLists, outcomes({}))
    expect(report).toMatchObject({ evaluated: 2, matched: 1, errors: 1, sample_trace_ids: ['d2'] })
  })

  it('returns an all-zero report for no records', () => {
    expect(backtest(compileRule('true'), [], noLists, outcomes({}))).toEqual(emptyReport())
  })

  it('keeps at most 20 sample trace ids, the first matches in the order given, while counting every match', () => {
    const records = Array.from({ length: 30 }, (_, i) => record(`s${String(i).padStart(2, '0')}`, i % 2 === 0 ? 'approve' : 'reject', { amount: i }))
    const report = backtest(compileRule('request.amount >= 5'), records, noLists, outcomes({}))
    expect(report.matched).toBe(25)
    expect(report.matched_by_action).toEqual({ approve: 12, flag: 0, reject: 13 })
    expect(report.matched_by_outcome.unlabeled).toBe(25)
    expect(report.sample_trace_ids).toHaveLength(20)
    expect(report.sample_trace_ids[0]).toBe('s05')
    expect(report.sample_trace_ids[19]).toBe('s24')
    // Order is the order given (the caller passes oldest first), not sorted here.
    const reversed = backtest(compileRule('request.amount >= 5'), [...records].reverse(), noLists, outcomes({}))
    expect(reversed.sample_trace_ids[0]).toBe('s29')
  })

  it('has no window or cap of its own: it evaluates every record it is given, whatever its time, consuming an iterable once', () => {
    let yielded = 0
    function * lazy () {
      for (const at of [0, T0 - 365 * 86_400_000, T0, T0 + 365 * 86_400_000]) { yielded++; yield record(`w${yielded}`, 'flag', { amount: 1 }, { created_ms: at }) }
    }
    const report = backtest(compileRule('request.amount == 1'), lazy(), noLists, outcomes({}))
    expect(yielded).toBe(4)
    expect(report).toMatchObject({ evaluated: 4, matched: 4, errors: 0 })
  })
})

describe('backtest over a window of stored transactions, as POST /v1/rules/:id/backtest composes it', () => {
  let dir: string | undefined
  let state: StateDb | undefined
  afterEach(async () => {
    await state?.close()
    if (dir !== undefined) await rm(dir, { recursive: true, force: true })
    state = undefined
    dir = undefined
  })

  async function store (records: TransactionRecord[]): Promise<StateDb> {
    dir = await mkdtemp(path.join(tmpdir(), 'backtest-'))
    state = await openStateDb(path.join(dir, 'state'))
    writeBatchSync(state.db, records.map(r => putTransactionOp(r, encodeEvent(r))), false)
    return state
  }

  const at = (ms: number, action: Action, amount: number) => {
    const id = stableId('trc', ms, String(ms))
    return record(id, action, { amount }, { created_ms: ms })
  }

  it('evaluates only the transactions created in [from, to) of the scope, oldest first, cut at the limit', async () => {
    const before = at(T0 - 1, 'reject', 500)
    const first = at(T0, 'reject', 500)
    const second = at(T0 + 1000, 'flag', 300)
    const third = at(T0 + 2000, 'approve', 5)
    const last = at(T0 + 2999, 'reject', 400)
    const after = at(T0 + 3000, 'reject', 500)
    const otherMode = { ...at(T0 + 500, 'reject', 500), livemode: true }
    const db = await store([after, last, third, second, first, before, otherMode])
    const scope = { tenant: 'ten_bt', mode: 'test' as const }
    const rule = compileRule('request.amount > 100')
    const run = async (limit: number) => {
      const records: TransactionRecord[] = []
      for await (const r of transactionsBetween(db, scope, T0, T0 + 3000, limit)) records.push(r)
      return backtest(rule, records, noLists, outcomes({ [first.trace_id]: 'fraud', [last.trace_id]: 'chargeback' }))
    }
    expect(await run(100)).toEqual({
      evaluated: 4,
      matched: 3,
      errors: 0,
      matched_by_outcome: { fraud: 1, safe: 0, chargeback: 1, unlabeled: 1 },
      matched_by_action: { approve: 0, flag: 1, reject: 2 },
      sample_trace_ids: [first.trace_id, second.trace_id, last.trace_id]
    })
    expect(await run(2)).toMatchObject({ evaluated: 2, matched: 2, sample_trace_ids: [first.trace_id, second.trace_id] })
  })
})
