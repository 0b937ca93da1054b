import { afterAll, describe, expect, it } from 'vitest'
import { RuleWorker, RuleWorkerBusy, RuleWorkerTimeout } from '../../src/services/rule-worker.js'
import type { BacktestOutcome, Checked } from '../../src/services/rule-worker-thread.js'
import { encodeEvent, type TransactionRecord } from '../../src/domain/records/decisions.js'

const workers: RuleWorker[] = []
const newWorker = (maxQueued?: number) => { const w = new RuleWorker(maxQueued); workers.push(w); return w }
afterAll(async () => { for (const w of workers) await w.close() })

const record = (i: number, amount: number): TransactionRecord => ({
  trace_id: `trc_${String(i).padStart(26, '0')}`,
  tenant_id: 'ten_w',
  livemode: false,
  created_ms: 1_800_000_000_000,
  request: { event: 'payment', amount },
  decision: { score: 0.1, risk_level: 'low', action: 'approve', signals: [], rules: [], trace_id: `trc_${i}`, latency_ms: 1 },
  ruleset_version: 'rs_1',
  model_version: 'm_1',
  features: {},
  base_action: 'approve',
  override_gate: null,
  rule_errors: [],
  rollout_buckets: {},
  origin_id: 'o',
  origin_seq: i
})

describe('rule worker', () => {
  it('validates expressions in its thread: valid with the cost, or the problem with line, column and kind', async () => {
    const worker = newWorker()
    const ok = await worker.run<Checked>({ kind: 'validate', expression: 'request.amount > 10.0', lists: [] }, 30_000)
    expect(ok).toMatchObject({ valid: true, cost: expect.any(Number) })
    const costly = await worker.run<Checked>({ kind: 'validate', expression: 'true &&\n custom.a.exists(x, custom.a.exists(y, x == y))', lists: [] }, 30_000)
    expect(costly).toMatchObject({ valid: false, error: { kind: 'cost', line: 2, column: 2 } })
    const regex = await worker.run<Checked>({ kind: 'validate', expression: 'request.user_id.matches("(a)\\\\1")', lists: [] }, 30_000)
    expect(regex).toMatchObject({ valid: false, error: { kind: 'syntax', line: 1, column: 25 } })
  })

  it('backtests the records it is fed, decoding them itself', async () => {
    const worker = newWorker()
    const records = [record(1, 50), record(2, 500), record(3, 900)]
    const outcome = await worker.run<BacktestOutcome>({ kind: 'backtest', expression: 'request.amount > 100.0', lists: {} }, 30_000, async post => {
      const encoded = records.map(r => encodeEvent(r))
      const data = new Uint8Array(encoded.reduce((n, e) => n + e.length, 0))
      const ends: number[] = []
      let at = 0
      for (const e of encoded) { data.set(e, at); at += e.length; ends.push(at) }
      post({ kind: 'records', data: data.buffer, ends }, [data.buffer])
      post({ kind: 'end' })
    })
    expect(outcome).toEqual({ found: { evaluated: 3, matched: 2, errors: 0, matched_by_action: { approve: 2, flag: 0, reject: 0 }, matches: [records[1]!.trace_id, records[2]!.trace_id] } })
  })

  it('terminates a job past its time bound, fails it with RuleWorkerTimeout, and serves the next job with a new worker', async () => {
    const worker = newWorker()
    // A backtest whose records never end: only the time bound ends it.
    const hung = worker.run({ kind: 'backtest', expression: 'true', lists: {} }, 200, async () => {})
    await expect(hung).rejects.toBeInstanceOf(RuleWorkerTimeout)
    await expect(hung).rejects.toThrow('stopped after 200 ms')
    expect(await worker.run<Checked>({ kind: 'validate', expression: 'true', lists: [] }, 30_000)).toMatchObject({ valid: true })
  })

  it('refuses more waiting jobs than it takes, and fails the waiting ones when closed', async () => {
    const worker = newWorker(1)
    const first = worker.run({ kind: 'backtest', expression: 'true', lists: {} }, 60_000, async () => {})
    const second = worker.run({ kind: 'validate', expression: 'true', lists: [] }, 60_000)
    await expect(worker.run({ kind: 'validate', expression: 'true', lists: [] }, 60_000)).rejects.toBeInstanceOf(RuleWorkerBusy)
    const failed = Promise.all([expect(first).rejects.toThrow(), expect(second).rejects.toThrow(/closed/)])
    await worker.close()
    await failed
  })
})
