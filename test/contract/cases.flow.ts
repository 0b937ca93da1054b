import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { auth, eventually } from '../support/app.js'
import { type ServiceEvent, parseEvent } from '../../src/domain/records/events.js'

/**
 * The case flow end to end, for one transport: `a` and `b` are two instances of one deployment (the same
 * instance on the embedded transport). Commands go through both, so on Kafka the single case writer, the
 * materialized views and the topics are exercised across processes' worth of consumers.
 */
export function caseFlowSuite (transport: string, start: () => Promise<{ a: App, b: App }>): void {
  describe(`cases end to end: ${transport}`, () => {
    let a: App
    let b: App
    const events: ServiceEvent[] = []
    let closeEvents = async () => {}
    beforeAll(async () => {
      ({ a, b } = await start())
      const sub = await a.log.subscribe({ group: `test-events-${Date.now()}`, topics: [a.topics.events], onBatch: async rs => { for (const r of rs) events.push(parseEvent(r.value)) } })
      closeEvents = () => sub.close()
    })
    afterAll(async () => {
      await closeEvents()
      await Promise.all([...new Set([a, b])].filter(x => x !== undefined).map(x => x.close()))
    })

    const call = (app: App, method: 'GET' | 'POST', url: string, payload?: object) => app.server.inject({ method, url, headers: auth(), ...(payload === undefined ? {} : { payload }) })
    const eventsOf = (type: string, caseId: string) => [...new Map(events.filter(e => e.type === type && e.data.case_id === caseId).map(e => [e.id, e])).values()]

    it('flag -> case (case.created) -> assignment -> fraud disposition (case.dispositioned, label, deny list)', async () => {
      const user = `u-flow-${transport}`
      const flagged = (await call(a, 'POST', '/v1/score', { event: 'payment', amount: 25_000, user_id: user, device_id: `d-${user}` })).json()
      expect(flagged).toMatchObject({ action: 'flag', rules: ['amount_over_10000'] })

      const opened = await eventually(async () => (await call(b, 'GET', `/v1/cases?trace_id=${flagged.trace_id}`)).json().data[0], 30000, 'case opened for the flag')
      expect(opened).toMatchObject({ object: 'case', trace_id: flagged.trace_id, status: 'open', outcome: null, opened_by: 'rule', rules: ['amount_over_10000'], subjects: { user_id: user } })
      const created = await eventually(() => eventsOf('case.created', opened.id)[0], 30000, 'case.created')
      expect(created).toMatchObject({ livemode: false, data: { case_id: opened.id, trace_id: flagged.trace_id } })

      const assigned = await call(b, 'POST', `/v1/cases/${opened.id}/assign`, { assignee: 'ana' })
      expect(assigned.json()).toMatchObject({ status: 'in_review', assignee: 'ana' })
      const closed = await call(a, 'POST', `/v1/cases/${opened.id}/disposition`, { outcome: 'fraud', analyst: 'ana', reason: 'stolen card' })
      expect(closed.statusCode).toBe(200)
      expect(closed.json()).toMatchObject({ status: 'closed', outcome: 'fraud' })
      expect(closed.json().history.map((h: { type: string }) => h.type)).toEqual(['opened', 'assigned', 'dispositioned'])
      const dispositioned = await eventually(() => eventsOf('case.dispositioned', opened.id)[0], 30000, 'case.dispositioned')
      expect(dispositioned.data).toMatchObject({ outcome: 'fraud', analyst: 'ana', trace_id: flagged.trace_id })

      // The subjects land on the deny lists (Stage 1) and the next request of the user is rejected.
      await eventually(async () => (await call(b, 'GET', '/v1/lists/deny_users')).json().items.includes(user) || undefined, 30000, 'deny list entry')
      expect((await call(b, 'GET', '/v1/lists/deny_devices')).json().items).toContain(`d-${user}`)
      const after = (await call(b, 'POST', '/v1/score', { event: 'payment', amount: 5, user_id: user })).json()
      expect(after).toMatchObject({ action: 'reject', rules: ['deny_list'] })

      // The label reached the feedback topic and the scoring stage: backtests split matches by it.
      const from = Math.floor(Date.now() / 1000) - 3600
      const report = await eventually(async () => {
        const r = (await call(a, 'POST', '/v1/rules/amount_over_10000/backtest', { from, to: from + 7200 })).json()
        return r.matched_by_outcome?.fraud === 1 ? r : undefined
      }, 30000, 'labelled backtest')
      expect(report.sample_trace_ids).toContain(flagged.trace_id)
    })

    it('lets exactly one of concurrent dispositions win', async () => {
      const opened = (await call(a, 'POST', '/v1/cases', { subjects: { user_id: `u-race-${transport}` }, reason: 'analyst hunch' })).json()
      expect(opened).toMatchObject({ status: 'open', opened_by: 'analyst' })
      const outcomes = ['safe', 'fraud', 'safe', 'fraud', 'safe', 'fraud']
      const results = await Promise.all(outcomes.map((outcome, i) => call(i % 2 === 0 ? a : b, 'POST', `/v1/cases/${opened.id}/disposition`, { outcome, analyst: `an-${i}` })))
      const won = results.filter(r => r.statusCode === 200)
      expect(won).toHaveLength(1)
      for (const r of results.filter(r => r.statusCode !== 200)) expect(r.json().error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_transition' })
      const final = await eventually(async () => {
        const c = (await call(b, 'GET', `/v1/cases/${opened.id}`)).json()
        return c.status === 'closed' ? c : undefined
      }, 30000, 'case closed on b')
      expect(final.outcome).toBe(won[0]!.json().outcome)
      expect(final.history.filter((h: { type: string }) => h.type === 'dispositioned')).toHaveLength(1)
      await eventually(() => eventsOf('case.dispositioned', opened.id).length === 1 || undefined, 30000, 'one case.dispositioned')
      await new Promise(resolve => setTimeout(resolve, 300))
      expect(eventsOf('case.dispositioned', opened.id)).toHaveLength(1)
    })
  })
}
