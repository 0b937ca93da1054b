import { createReadStream } from 'node:fs'
import { createInterface } from 'node:readline'
import { createGunzip } from 'node:zlib'
import { aucRoc, averagePrecision, cardPrecisionAtK, type CardScored } from '../../domain/detection-metrics.js'

/** One row of the handbook data set (see ../shared/bench/README.md). */
export interface HistoricalTransaction { id: string, timeMs: number, customer: string, terminal: string, amount: number, fraud: 0 | 1 }

export interface ReplayOptions {
  file: string
  url: string
  key: string
  /** Replay rows with from <= time < to (ms). */
  fromMs: number
  toMs: number
  /** Days whose decisions are measured (ms range). */
  testFromMs: number
  testToMs: number
  /** Labels reach the service this long after the transaction (the book: 7 days). */
  feedbackDelayMs: number
  batchSize: number
  progress: (line: string) => void
}

export interface DayFigures { day: string, transactions: number, frauds: number, auc: number, ap: number, cardPrecision100: number }
export interface ReplayReport { replayed: number, feedback: number, days: DayFigures[], test: { auc: number, ap: number, cardPrecision100: number } }

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10)

export async function * readHandbookCsv (file: string): AsyncGenerator<HistoricalTransaction> {
  const input = file.endsWith('.gz') ? createReadStream(file).pipe(createGunzip()) : createReadStream(file)
  let header = true
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    if (header) { header = false; continue }
    if (line === '') continue
    const [id, time, customer, terminal, amount, fraud] = line.split(',')
    yield { id: id!, timeMs: Date.parse(time!.replace(' ', 'T') + 'Z'), customer: customer!, terminal: terminal!, amount: Number(amount), fraud: fraud === '1' ? 1 : 0 }
  }
}

/** The score request a historical transaction becomes: the customer is the user and the card, the terminal a custom key. */
export function scoreEventOf (t: HistoricalTransaction) {
  return { event: 'payment', amount: t.amount, currency: 'EUR', user_id: `cust_${t.customer}`, card_fingerprint: `card_${t.customer}`, terminal_id: `term_${t.terminal}`, event_time: Math.floor(t.timeMs / 1000) }
}

/**
 * Replays historical transactions through the real API in event-time order (POST /v1/score/batch), and feeds
 * each fraud back as a case disposition once the replay has moved `feedbackDelayMs` past it (a chargeback
 * reported late). Decisions on test days are measured per day: AUC ROC, average precision, card precision@100.
 */
export async function replay (o: ReplayOptions): Promise<ReplayReport> {
  const headers = { authorization: `Bearer ${o.key}`, 'content-type': 'application/json' }
  const post = async (path: string, body: unknown) => {
    const res = await fetch(o.url + path, { method: 'POST', headers, body: JSON.stringify(body) })
    return { status: res.status, json: await res.json() as any }
  }
  const pendingFeedback: Array<{ dueMs: number, traceId: string }> = []
  const measured: CardScored[] = []
  let replayed = 0
  let feedback = 0
  let batch: HistoricalTransaction[] = []
  const started = Date.now()

  const sendFeedback = async (nowMs: number) => {
    while (pendingFeedback.length > 0 && pendingFeedback[0]!.dueMs <= nowMs) {
      const { traceId } = pendingFeedback.shift()!
      const opened = await post('/v1/cases', { trace_id: traceId, reason: 'chargeback' })
      const caseId = opened.status === 200 ? opened.json.id : opened.json.error?.code === 'resource_exists' ? 'case_' + traceId.slice(4) : undefined
      if (caseId !== undefined && (await post(`/v1/cases/${caseId}/disposition`, { outcome: 'fraud', analyst: 'replay', reason: 'chargeback' })).status === 200) feedback++
    }
  }
  const flush = async () => {
    if (batch.length === 0) return
    const res = await post('/v1/score/batch', { events: batch.map(scoreEventOf) })
    if (res.status !== 200) throw new Error(`batch refused: ${res.status} ${JSON.stringify(res.json)}`)
    res.json.data.forEach((d: { score?: number, trace_id?: string, error?: unknown }, i: number) => {
      const t = batch[i]!
      if (d.trace_id === undefined) throw new Error(`event ${t.id} refused: ${JSON.stringify(d.error)}`)
      if (t.fraud === 1) pendingFeedback.push({ dueMs: t.timeMs + o.feedbackDelayMs, traceId: d.trace_id })
      if (t.timeMs >= o.testFromMs && t.timeMs < o.testToMs) measured.push({ day: dayOf(t.timeMs), card: t.customer, score: d.score!, label: t.fraud })
    })
    replayed += batch.length
    const last = batch[batch.length - 1]!
    batch = []
    await sendFeedback(last.timeMs)
    if (replayed % 20_000 < o.batchSize) o.progress(`replayed ${replayed} (${dayOf(last.timeMs)}), ${feedback} frauds fed back, ${Math.round(replayed / ((Date.now() - started) / 1000))} tx/s`)
  }

  for await (const t of readHandbookCsv(o.file)) {
    if (t.timeMs < o.fromMs || t.timeMs >= o.toMs) continue
    batch.push(t)
    if (batch.length >= o.batchSize) await flush()
  }
  await flush()

  const days = [...new Set(measured.map(m => m.day))].sort().map(day => {
    const items = measured.filter(m => m.day === day)
    return { day, transactions: items.length, frauds: items.filter(m => m.label === 1).length, auc: aucRoc(items), ap: averagePrecision(items), cardPrecision100: 0 }
  })
  const cp = cardPrecisionAtK(measured, 100)
  for (const d of days) d.cardPrecision100 = cp.find(c => c.day === d.day)?.precision ?? NaN
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
  return { replayed, feedback, days, test: { auc: aucRoc(measured), ap: averagePrecision(measured), cardPrecision100: mean(cp.map(c => c.precision)) } }
}
