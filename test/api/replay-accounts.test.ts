import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { App } from '../../src/app/app.js'
import { accountEventRequest, readAccountEventsCsv, replayAccounts } from '../../src/app/replay/accounts.js'
import { DAY_MS, isoDay } from '../../src/domain/detection-protocol.js'
import { auth, OPERATOR_TOKEN, startTestApp, tempDir, TEST_KEY } from '../support/app.js'

const HEADER = 'EVENT_ID,EVENT_TIME,EVENT,USER_ID,DEVICE_ID,IP,EMAIL,AMOUNT,CURRENCY,COUNTRY,CITY,LAT,LON,CARD,MERCHANT,OUTCOME,FRAUD,SCENARIO,LABEL_DELAY_DAYS'
// u_m (a mule) pays out on 03-08, known 1.5 days later (03-09 22:00), logs in on 03-10 (known only 30 days later);
// u_s signs up on 03-10 10:00 (known 6 hours later) and pays on 03-11; the row of 03-12 lies past the replay.
const ROWS = [
  '1,2025-03-08 09:00:00,login,u_a,d_1,10.0.0.1,anna.berg@example.com,,,FR,Paris,48.8566,2.3522,,,success,0,0,',
  '2,2025-03-08 10:00:00,payout,u_m,d_9,10.9.0.1,mule@example.net,950.5,EUR,DE,Berlin,52.52,13.405,,bk_77,success,1,3,1.5',
  '3,2025-03-08 11:00:00,payment,u_b,d_2,10.0.0.2,ben@example.com,12.5,GBP,GB,London,51.5074,-0.1278,c_1,m_1,declined,0,0,',
  '4,2025-03-10 09:00:00,login,u_m,d_9,10.9.0.1,mule@example.net,,,DE,Berlin,52.52,13.405,,,success,1,3,30',
  '5,2025-03-10 10:00:00,signup,u_s,d_5,10.5.0.1,x7q2k@example.org,,,PL,Warsaw,52.2297,21.0122,,,success,1,4,0.25',
  '6,2025-03-10 17:00:00,login,u_a,d_1,10.0.0.1,anna.berg@example.com,,,FR,Paris,48.8566,2.3522,,,failed,0,0,',
  '7,2025-03-10 18:00:00,account_update,u_a,d_1,10.0.0.1,anna.new@example.com,,,FR,Paris,48.8566,2.3522,,,success,0,0,',
  '8,2025-03-11 08:00:00,payout,u_c,d_3,10.0.0.3,carl@example.com,40,SEK,SE,Stockholm,59.3293,18.0686,,u_a,success,0,0,',
  '9,2025-03-11 09:00:00,payment,u_s,d_5,10.5.0.1,x7q2k@example.org,499,PLN,PL,Warsaw,52.2297,21.0122,c_9,m_2,success,1,4,100',
  '10,2025-03-12 09:00:00,login,u_a,d_1,10.0.0.1,anna.new@example.com,,,FR,Paris,48.8566,2.3522,,,success,0,0,'
]
const day = (s: string) => Date.parse(s + 'T00:00:00Z')

let app: App
let file: string
beforeAll(async () => {
  app = await startTestApp({ RATE_LIMIT_PER_SECOND: '100000', RATE_LIMIT_BURST: '100000', RECORDED_TIME: 'event_time', MODEL_PUBLISH_INTERVAL_MS: '100' }, { listen: true })
  file = path.join(tempDir('fds-replay-accounts-'), 'accounts.csv')
  writeFileSync(file, [HEADER, ...ROWS].join('\n') + '\n')
})
afterAll(async () => { await app.close() })

describe('replay of account events', () => {
  it('maps every column onto the request as the protocol says, and no label', async () => {
    const events = []
    for await (const e of readAccountEventsCsv(file)) events.push(e)
    expect(events[1]!.fraudKnownMs).toBe(Date.parse('2025-03-09T22:00:00Z'))
    expect(events[0]!.fraudKnownMs).toBeUndefined()
    expect(accountEventRequest(events[2]!)).toEqual({
      event: 'payment', event_time: Date.parse('2025-03-08T11:00:00Z') / 1000, user_id: 'u_b', device_id: 'd_2', ip: '10.0.0.2', email: 'ben@example.com',
      amount: 12.5, currency: 'GBP', geo: { country: 'GB', city: 'London', lat: 51.5074, lon: -0.1278 },
      card_fingerprint: 'c_1', merchant_id: 'm_1', metadata: { outcome: 'declined' }
    })
    // a login: no amount, currency, card nor merchant (empty columns are left out); a payout's beneficiary is its merchant_id
    expect(Object.keys(accountEventRequest(events[0]!)).sort()).toEqual(['device_id', 'email', 'event', 'event_time', 'geo', 'ip', 'metadata', 'user_id'])
    expect(accountEventRequest(events[7]!)).toMatchObject({ event: 'payout', merchant_id: 'u_a', amount: 40, currency: 'SEK' })
  })

  it('scores in event time through the API, feeds each fraud back at its own delay, grades the week, the groups and a window', async () => {
    const report = await replayAccounts({
      file, url: app.address!, key: TEST_KEY, operatorToken: OPERATOR_TOKEN, fromMs: day('2025-03-08'), toMs: day('2025-03-12'),
      testWeeksMs: [day('2025-03-10')], window: { fromMs: day('2025-03-10'), toMs: day('2025-03-12') }, batchSize: 2, settleDaily: true, progress: () => {}
    })
    expect(report.replayed).toBe(9)
    // u_m's payout (known 03-09 22:00) and u_s's signup (known 03-10 16:00); the others are known after the last event
    expect(report.feedback).toBe(2)
    // one entry per replayed day (03-09 had no event)
    expect(report.days.map(d => [isoDay(d.day), d.events])).toEqual([['2025-03-08', 3], ['2025-03-10', 4], ['2025-03-11', 2]])

    const cases = (await app.server.inject({ method: 'GET', url: '/v1/cases?outcome=fraud&limit=100', headers: auth() })).json().data
    const fedBack = await Promise.all(cases.map(async (c: { trace_id: string }) => (await app.server.inject({ method: 'GET', url: `/v1/transactions/${c.trace_id}`, headers: auth() })).json().request))
    expect(fedBack.map(r => [r.event, r.user_id]).sort()).toEqual([['payout', 'u_m'], ['signup', 'u_s']])
    const payout = fedBack.find(r => r.event === 'payout')
    expect(payout).toMatchObject({ amount: 950.5, currency: 'EUR', device_id: 'd_9', ip: '10.9.0.1', email: 'mule@example.net', geo: { country: 'DE', city: 'Berlin', lat: 52.52, lon: 13.405 }, metadata: { outcome: 'success' }, custom: { merchant_id: 'bk_77' } })
    expect(JSON.stringify(fedBack)).not.toMatch(/FRAUD|SCENARIO|LABEL_DELAY|label/i)

    const [week] = report.weeks
    // 03-10: u_m dropped (known 03-09 22:00), u_s (fraud) and u_a; 03-11: u_s dropped (known 03-10 16:00), u_c; days 3-7 empty
    expect(week!.days.map(d => [isoDay(d.day), d.accounts, d.fraudAccounts, d.dropped, d.precision])).toEqual([
      ['2025-03-10', 2, 1, 1, 0.01], ['2025-03-11', 1, 0, 1, 0],
      ...[12, 13, 14, 15, 16].map(n => [`2025-03-${n}`, 0, 0, 0, 0])
    ])
    expect(week!.accountPrecision100).toBeCloseTo(0.01 / 7)
    // login + account_update: u_m's login (fraud), u_a's two; payment (one fraud only), payout (no fraud), signup (one fraud only) skipped
    expect(week!.groups['login+account_update']).toMatchObject({ events: 3, frauds: 1, skipped: false })
    expect([week!.groups.payment.skipped, week!.groups.payout.skipped, week!.groups.signup.skipped]).toEqual([true, true, true])
    expect(report.mean.groups.all.weeks).toBe(1)
    expect(report.window).toMatchObject({ fromMs: day('2025-03-10'), toMs: day('2025-03-12'), events: 6, frauds: 3, legitimate: 3 })
    expect(report.window.legitimateFlagged).toBeLessThanOrEqual(3)
    expect(report.window.groups.all.auc).toBeGreaterThanOrEqual(0)
    expect(week!.startDay * DAY_MS).toBe(day('2025-03-10'))
  })
})

describe('replay of account events with label noise', () => {
  let noisyApp: App
  beforeAll(async () => {
    noisyApp = await startTestApp({ RATE_LIMIT_PER_SECOND: '100000', RATE_LIMIT_BURST: '100000', RECORDED_TIME: 'event_time', MODEL_PUBLISH_INTERVAL_MS: '100' }, { listen: true })
  })
  afterAll(async () => { await noisyApp.close() })

  it('sends flipped frauds as safe and false reports on legitimate events as fraud, each when the replay reaches its time', async () => {
    // What the replay sends, in order: each event scored (its time and trace) and each disposition (its trace and outcome).
    const sent: Array<{ scored: { timeMs: number, traceId: string } } | { disposition: { traceId: string, outcome: string } }> = []
    const caseTraces = new Map<string, string>()
    const realFetch = globalThis.fetch
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const res = await realFetch(input, init)
      const url = String(input)
      const body = init?.body === undefined ? undefined : JSON.parse(String(init.body))
      if (url.endsWith('/v1/score/batch')) {
        const { data } = await res.clone().json() as { data: Array<{ trace_id: string }> }
        body.events.forEach((e: { event_time: number }, i: number) => sent.push({ scored: { timeMs: e.event_time * 1000, traceId: data[i]!.trace_id } }))
      } else if (url.endsWith('/v1/cases')) {
        caseTraces.set((await res.clone().json() as { id: string }).id, body.trace_id)
      } else if (url.endsWith('/disposition')) {
        sent.push({ disposition: { traceId: caseTraces.get(url.split('/').at(-2)!)!, outcome: body.outcome } })
      }
      return res
    })
    let report
    try {
      // Seed 13 at a share of 0.5 (the frauds' delays: 1.5, 30, 0.25 and 100 days): u_m's payout (known 03-09 22:00)
      // is fed back as fraud, u_s's signup (known 03-10 16:00) as safe, u_b's legitimate payment of 03-08 11:00 is
      // reported as fraud 1.5 days later (03-09 23:00); the other wrong labels fall after the replay.
      report = await replayAccounts({
        file, url: noisyApp.address!, key: TEST_KEY, operatorToken: OPERATOR_TOKEN, fromMs: day('2025-03-08'), toMs: day('2025-03-12'),
        testWeeksMs: [], window: { fromMs: day('2025-03-08'), toMs: day('2025-03-12') }, batchSize: 1, settleDaily: true,
        labelNoise: { share: 0.5, seed: 13 }, progress: () => {}
      })
    } finally {
      spy.mockRestore()
    }
    expect(report.replayed).toBe(9)
    expect(report.feedback).toBe(1)
    expect(report.wrongLabels).toEqual({ safe: 1, fraud: 1 })

    // each disposition with the event it names, the last event scored before it and the first after it
    const at = (ms: number) => new Date(ms).toISOString().slice(5, 16)
    const scored = sent.flatMap(x => 'scored' in x ? [x.scored] : [])
    const request = async (traceId: string) => (await noisyApp.server.inject({ method: 'GET', url: `/v1/transactions/${traceId}`, headers: auth() })).json().request
    const dispositions = await Promise.all(sent.map(async (x, i) => {
      if (!('disposition' in x)) return []
      const before = sent.slice(0, i).flatMap(y => 'scored' in y ? [y.scored.timeMs] : []).at(-1)!
      const after = sent.slice(i).find(y => 'scored' in y) as { scored: { timeMs: number } } | undefined
      const r = await request(x.disposition.traceId)
      return [[`${r.event} ${r.user_id}`, at(r.event_time * 1000), x.disposition.outcome, at(before), after === undefined ? 'end' : at(after.scored.timeMs)]]
    }))
    expect(dispositions.flat()).toEqual([
      // due 03-09 22:00 and 23:00: fed back at the midnight before the first event of 03-10
      ['payout u_m', '03-08T10:00', 'fraud', '03-08T11:00', '03-10T09:00'],
      ['payment u_b', '03-08T11:00', 'fraud', '03-08T11:00', '03-10T09:00'],
      // due 03-10 16:00: fed back once the event of 03-10 17:00 is scored
      ['signup u_s', '03-10T10:00', 'safe', '03-10T17:00', '03-10T18:00']
    ])
    expect(scored).toHaveLength(9)

    // what the service holds: the cases closed as the replay said
    const outcomes = async (outcome: string) => Promise.all((await noisyApp.server.inject({ method: 'GET', url: `/v1/cases?outcome=${outcome}&limit=100`, headers: auth() })).json().data
      .map(async (c: { trace_id: string }) => { const r = await request(c.trace_id); return `${r.event} ${r.user_id}` }))
    expect((await outcomes('fraud')).sort()).toEqual(['payment u_b', 'payout u_m'])
    expect(await outcomes('safe')).toEqual(['signup u_s'])
  })
})

