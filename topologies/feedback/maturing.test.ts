import { afterAll, beforeAll, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { auth, eventually, startTestApp } from '../../test/support/app.js'

const NOW = Date.parse('2026-11-23T12:00:00Z')
const DAY = 86_400_000
let now = NOW
let app: App

beforeAll(async () => {
  // No topology runs until the decisions are all in the log, one partition: the trainer reads them in one batch, in order.
  app = await startTestApp({ TOPOLOGIES: 'none', DECISIONS_PARTITIONS: '1', MODEL_PUBLISH_INTERVAL_MS: '50', LABEL_MATURITY_DAYS: '2', MODEL_MIN_FRAUDS: '1000000' }, { clock: () => now })
})
afterAll(async () => { await app.close() })

it('matures a decision that arrives, already due, in the same batch as the decision that moved the watermark', async () => {
  const score = async (daysAgo: number) => {
    now = NOW - daysAgo * DAY
    const res = await app.server.inject({ method: 'POST', url: '/v1/score', headers: auth(), payload: { event: 'payment', amount: 20, user_id: `u-${daysAgo}` } })
    expect(res.statusCode).toBe(200)
  }
  // Recorded times reach the trainer out of order (decisions of one tenant come from several partitions): the
  // watermark is already 6 days past the second one's recorded time when it arrives, in the same batch.
  await score(0)
  await score(6) // due 4 days ago
  const stop = await app.startTopologies(['feedback'])
  try {
    // Nothing else arrives: the batch that held both must have learned the first as legitimate.
    const trained = await eventually(async () => {
      const s = (await app.server.inject({ method: 'GET', url: '/v1/risk_settings', headers: auth() })).json()
      return s.model.trained_labels >= 1 ? s.model.trained_labels as number : undefined
    }, 10000, 'the matured decision learned')
    expect(trained).toBe(1)
  } finally { await stop() }
})
