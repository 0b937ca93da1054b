import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { ApiError } from '../../src/services/errors.js'
import { RuleJobs } from '../../src/services/rule-jobs.js'
import { RuleWorker } from '../../src/services/rule-worker.js'
import { auth, startTestApp } from '../support/app.js'

/** Rule cost over the API: refusals with line and column, the validate answer, the backtest's time bound, the budget. */
let app: App
const post = (url: string, payload: object) => app.server.inject({ method: 'POST', url, headers: auth(), payload })
const get = (url: string) => app.server.inject({ method: 'GET', url, headers: auth() })
const wideMap = Object.fromEntries(Array.from({ length: 990 }, (_, i) => [`k${i}`, i]))

// A budget of 10,000 units: one rule that fails on each of 990 keys (over 100 units a key) spends it.
beforeAll(async () => { app = await startTestApp({ RULE_BUDGET_UNITS: '10000' }) })
afterAll(async () => { await app.close() })

describe('rule cost over the API', () => {
  it('refuses a rule over the cost limit when saved: 400 expression_too_costly naming line and column', async () => {
    const res = await post('/v1/rules', { id: 'nested', name: 'n', expression: 'true &&\n  custom.a.exists(x, custom.a.exists(y, x == y))', action: 'flag' })
    expect(res.statusCode).toBe(400)
    expect(res.json().error).toMatchObject({ type: 'invalid_request_error', code: 'expression_too_costly', param: 'expression' })
    expect(res.json().error.message).toMatch(/^Invalid expression at line 2, column 3: exists\(\) over up to 1,000 items, each costing up to [\d,]+ units: estimated cost [\d,]+ units exceeds the limit of 250,000 units per rule/)
    expect((await get('/v1/rules/nested')).statusCode).toBe(404)
  })

  it('validates in the worker: the cost of a valid expression, or the problem with line, column and code', async () => {
    const ok = (await post('/v1/rules/validate', { expression: 'request.amount > 10.0' })).json()
    expect(ok).toMatchObject({ object: 'expression_check', valid: true, error: null })
    expect(ok.cost).toBeGreaterThan(0)
    const costly = (await post('/v1/rules/validate', { expression: 'custom.a.map(x, custom.a.map(y, 1)).size() > 0' })).json()
    expect(costly).toEqual({ object: 'expression_check', valid: false, cost: null, error: { message: expect.stringMatching(/^map\(\) over up to 1,000 items/), line: 1, column: 1, code: 'expression_too_costly' } })
    const regex = (await post('/v1/rules/validate', { expression: 'request.email.matches("(?=x)")' })).json()
    expect(regex).toMatchObject({ valid: false, error: { line: 1, column: 23, code: 'parameter_invalid' } })
    expect(regex.error.message).toMatch(/RE2/)
  })

  it('ends a backtest past its time bound with 400 evaluation_timeout, never a 500', async () => {
    for (let i = 0; i < 3; i++) expect((await post('/v1/score', { event: 'payment', amount: 10, user_id: `bt-${i}` })).statusCode).toBe(200)
    const jobs = new RuleJobs(new RuleWorker(), { validateMs: 5_000, backtestMs: 1, backtestRecords: 100_000 })
    try {
      const now = Date.now()
      const failed = await jobs.backtest(app.state, { scope: { tenant: app.identity.defaultTenant, mode: 'test' }, expression: 'true', lists: {}, fromMs: now - 60_000, toMs: now + 60_000 }).catch(err => err)
      expect(failed).toBeInstanceOf(ApiError)
      expect(failed).toMatchObject({ code: 'evaluation_timeout', statusCode: 400 })
      expect(failed.message).toMatch(/^The backtest did not finish within 0.001 s and was stopped; narrow 'from' and 'to'/)
    } finally {
      await jobs.close()
    }
  })

  it('skips rules past the runtime budget, records them in rule_errors, and gives up the counterfactual', async () => {
    expect((await post('/v1/rules', { id: 'b_amount', name: 'amount', expression: 'request.amount > 10.0', action: 'flag', priority: 1 })).statusCode).toBe(200)
    expect((await post('/v1/rules', { id: 'b_heavy', name: 'heavy', expression: 'custom.m.exists(k, custom.m[k].x > 1.0)', action: 'flag', priority: 2 })).statusCode).toBe(200)
    expect((await post('/v1/rules', { id: 'b_last', name: 'last', expression: 'request.amount > 20.0', action: 'flag', priority: 3 })).statusCode).toBe(200)
    const decision = (await post('/v1/score', { event: 'payment', amount: 50, m: wideMap })).json()
    expect(decision.rules).not.toContain('b_last')
    expect(decision.counterfactual).toBeNull()
    const tx = (await get(`/v1/transactions/${decision.trace_id}`)).json()
    // The heavy rule is stopped while it runs; work is counted, not timed, so this holds on any machine.
    expect(tx.evaluation.rule_errors).toEqual(expect.arrayContaining([
      { id: 'b_heavy', error: 'stopped: the rules of this request spent their budget of 10,000 cost units' },
      { id: 'b_last', error: 'not evaluated: the rules of this request spent their budget of 10,000 cost units' }
    ]))
  })
})
