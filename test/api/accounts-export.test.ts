import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { readAccountsExport, type ExportedAccountEvent } from '../../src/app/replay/accounts-export.js'
import { replayAccounts } from '../../src/app/replay/accounts.js'
import { auth, OPERATOR_TOKEN, startTestApp, tempDir, TEST_KEY } from '../support/app.js'

const HEADER = 'EVENT_ID,EVENT_TIME,EVENT,USER_ID,DEVICE_ID,IP,EMAIL,AMOUNT,CURRENCY,COUNTRY,CITY,LAT,LON,CARD,MERCHANT,OUTCOME,FRAUD,SCENARIO,LABEL_DELAY_DAYS'
const EVENTS = 230 // three pages of the transaction list
/** Every 10 minutes from 2025-03-08 00:00: logins of 23 accounts, then a payout; every 50th a fraud known 2 days later. */
const row = (i: number) => {
  const time = new Date(Date.parse('2025-03-08T00:00:00Z') + i * 600_000).toISOString().slice(0, 19).replace('T', ' ')
  const fraud = i % 50 === 7
  return i % 10 === 9
    ? `${i + 1},${time},payout,u_${i % 23},d_${i % 23},10.0.0.${i % 23},u${i % 23}@example.com,120,EUR,FR,Paris,48.8566,2.3522,,bk_${i},success,${fraud ? '1,3,2' : '0,0,'}`
    : `${i + 1},${time},login,u_${i % 23},d_${i % 23},10.0.0.${i % 23},u${i % 23}@example.com,,,FR,Paris,48.8566,2.3522,,,success,${fraud ? '1,1,2' : '0,0,'}`
}
const day = (s: string) => Date.parse(s + 'T00:00:00Z')

let app: App
let dir: string
beforeAll(async () => {
  app = await startTestApp({ RATE_LIMIT_PER_SECOND: '100000', RATE_LIMIT_BURST: '100000', RECORDED_TIME: 'event_time', MODEL_PUBLISH_INTERVAL_MS: '100' }, { listen: true })
  dir = tempDir('fds-accounts-export-')
  writeFileSync(path.join(dir, 'accounts.csv'), [HEADER, ...Array.from({ length: EVENTS }, (_, i) => row(i))].join('\n') + '\n')
})
afterAll(async () => { await app.close() })

describe('export of an account-events replay', () => {
  it('writes every replayed event once, with its labels, score and the features its decision recorded', async () => {
    const exportTo = path.join(dir, 'export.jsonl.gz')
    await replayAccounts({
      file: path.join(dir, 'accounts.csv'), url: app.address!, key: TEST_KEY, operatorToken: OPERATOR_TOKEN, fromMs: day('2025-03-08'), toMs: day('2025-03-10'),
      testWeeksMs: [], window: { fromMs: day('2025-03-08'), toMs: day('2025-03-10') }, batchSize: 100, settleDaily: true, exportTo, progress: () => {}
    })
    const rows: ExportedAccountEvent[] = []
    for await (const e of readAccountsExport(exportTo)) rows.push(e)
    expect(rows).toHaveLength(EVENTS)
    expect(new Set(rows.map(r => r.trace_id)).size).toBe(EVENTS)

    const byTime = [...rows].sort((a, b) => a.time_ms - b.time_ms)
    expect(byTime.map(r => [r.event, r.user_id, r.fraud])).toEqual(Array.from({ length: EVENTS }, (_, i) => [i % 10 === 9 ? 'payout' : 'login', `u_${i % 23}`, i % 50 === 7 ? 1 : 0]))
    const fraud = byTime[7]!
    expect(fraud).toMatchObject({ time_ms: day('2025-03-08') + 7 * 600_000, group: 'login+account_update', known_ms: day('2025-03-10') + 7 * 600_000 })
    expect(byTime[9]).toMatchObject({ group: 'payout', known_ms: null, fraud: 0 })

    // as the service recorded it
    const recorded = (await app.server.inject({ method: 'GET', url: `/v1/transactions/${fraud.trace_id}`, headers: auth() })).json()
    expect(fraud.score).toBe(recorded.decision.score)
    expect(fraud.features).toEqual(recorded.evaluation.features)
    expect(Object.keys(fraud.features).length).toBeGreaterThan(10)
  })
})
