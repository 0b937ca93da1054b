import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { replay } from '../../src/app/replay/replay.js'
import { isoDay } from '../../src/domain/detection-protocol.js'
import { auth, startTestApp, tempDir, TEST_KEY } from '../support/app.js'

let app: App
beforeAll(async () => { app = await startTestApp({ RATE_LIMIT_PER_SECOND: '100000', RATE_LIMIT_BURST: '100000' }, { listen: true, clock: () => Date.parse('2018-09-01T00:00:00Z') }) })
afterAll(async () => { await app.close() })

describe('replay of historical transactions', () => {
  it('scores in event time through the API, feeds frauds back after the delay, grades the test week with the book\'s protocol', async () => {
    const rows = ['TRANSACTION_ID,TX_DATETIME,CUSTOMER_ID,TERMINAL_ID,TX_AMOUNT,TX_FRAUD,TX_FRAUD_SCENARIO']
    let id = 0
    // 12 customers a day; on day d customer d - 1 is defrauded (amount 900)
    for (let d = 1; d <= 12; d++) {
      for (let i = 0; i < 12; i++) {
        const fraud = i === d - 1 ? 1 : 0
        rows.push(`${id++},2018-08-${String(d).padStart(2, '0')} ${String(8 + i).padStart(2, '0')}:00:00,${i},${100 + i},${fraud === 1 ? 900 : 20 + i},${fraud},${fraud}`)
      }
    }
    const file = path.join(tempDir('fds-replay-'), 'tx.csv')
    writeFileSync(file, rows.join('\n') + '\n')
    const day = (s: string) => Date.parse(s + 'T00:00:00Z')
    const report = await replay({
      file, url: app.address!, key: TEST_KEY, fromMs: day('2018-08-01'), toMs: day('2018-08-13'), testWeeksMs: [day('2018-08-11')],
      periods: { trainDays: 7, delayDays: 7, testDays: 2 }, feedbackDelayMs: 7 * 86_400_000, batchSize: 25, progress: () => {},
      window: { fromMs: day('2018-08-11'), toMs: day('2018-08-13') }
    })
    expect(report.replayed).toBe(144)
    // the graded window: every transaction of the test days (24: the week's 17 and the 7 of cards it drops as
    // known compromised), their 2 frauds, the rest legitimate
    expect(report.window).toMatchObject({ events: 24, frauds: 2, legitimate: 22 })
    expect(report.window!.legitimateFlagged).toBeLessThanOrEqual(22)
    // Frauds of 08-01..08-05 are at least 7 days older than the last replayed transaction (08-12 19:00).
    expect(report.feedback).toBe(5)
    // Training week 07-28..08-03 knows customers 0-2; the second test day also knows 08-04's (customer 3).
    const [week] = report.weeks
    expect(week!.days.map(d => [isoDay(d.day), d.transactions, d.frauds])).toEqual([['2018-08-11', 9, 1], ['2018-08-12', 8, 1]])
    expect(week).toMatchObject({ transactions: 17, removed: 7, frauds: 2 })
    const cases = (await app.server.inject({ method: 'GET', url: '/v1/cases?outcome=fraud&limit=100', headers: auth() })).json().data
    expect(cases).toHaveLength(5)
    const txs = await Promise.all(cases.map(async (c: { trace_id: string }) => (await app.server.inject({ method: 'GET', url: `/v1/transactions/${c.trace_id}`, headers: auth() })).json()))
    const fedBack = txs.map(tx => [new Date(tx.created * 1000).toISOString().slice(0, 10), tx.request.user_id, tx.request.custom.card_fingerprint, tx.request.amount]).sort()
    expect(fedBack).toEqual([0, 1, 2, 3, 4].map(i => [`2018-08-0${i + 1}`, `cust_${i}`, `card_${i}`, 900]))
  })
})
