import { createReadStream } from 'node:fs'
import { createInterface } from 'node:readline'
import { createGunzip } from 'node:zlib'
import type { CardScored } from '../../domain/detection-metrics.js'
import { BOOK_PERIODS, dayNumber, isoDay, meanFigures, weekFigures, type ProtocolPeriods, type WeekFigures } from '../../domain/detection-protocol.js'

/** One row of the handbook data set (see docs/detection-protocol-cards.md). */
export interface HistoricalTransaction { id: string, timeMs: number, customer: string, terminal: string, amount: number, fraud: 0 | 1 }

export interface ReplayOptions {
  file: string
  url: string
  key: string
  /** Replay rows with from <= time < to (ms). */
  fromMs: number
  toMs: number
  /** The first days (ms, UTC midnight) of the test weeks measured with the book's protocol. */
  testWeeksMs: readonly number[]
  periods?: ProtocolPeriods
  /** Labels reach the service this long after the transaction (the book: 7 days). */
  feedbackDelayMs: number
  batchSize: number
  /**
   * At each new day of event time, wait until the service's pipeline has applied everything sent and finished
   * its background work (GET /healthz shows no consumer lag and nothing in progress: a model training takes
   * seconds, a day of real traffic a day), as a day of real traffic would let it; the replay then runs at the
   * service's pace.
   */
  settleDaily?: boolean
  /** The service's operator credential (its METRICS_TOKEN): settling reads the whole /healthz report. */
  operatorToken?: string
  progress: (line: string) => void
}

export interface ReplayReport { replayed: number, feedback: number, weeks: WeekFigures[], mean: { auc: number, ap: number, cardPrecision100: number } }


export async function * readHandbookCsv (file: string): AsyncGenerator<HistoricalTransaction> {
  const source = createReadStream(file)
  const input = file.endsWith('.gz') ? source.pipe(createGunzip()) : source
  if (input !== source) source.once('error', err => input.destroy(err)) // pipe() does not pass a read error on
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
 * reported late). The decisions of each test week are measured with the book's protocol (detection-protocol.ts):
 * AUC ROC, average precision, card precision@100, with the cards known compromised from the file's labels.
 */
export async function replay (o: ReplayOptions): Promise<ReplayReport> {
  const headers = { authorization: `Bearer ${o.key}`, 'content-type': 'application/json' }
  const post = async (path: string, body: unknown) => {
    const res = await fetch(o.url + path, { method: 'POST', headers, body: JSON.stringify(body) })
    return { status: res.status, json: await res.json() as any }
  }
  const pendingFeedback: Array<{ dueMs: number, traceId: string }> = []
  const periods = o.periods ?? BOOK_PERIODS
  const testDays = o.testWeeksMs.map(dayNumber)
  const isTestDay = (day: number) => testDays.some(start => day >= start && day < start + periods.testDays)
  const measured: CardScored[] = []
  const fraudCards = new Map<number, Set<string>>()
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
  let settledDay = -1
  /** Until no consumer group of the service lags (at most a minute). */
  const settle = async () => {
    for (const until = Date.now() + 60_000; Date.now() < until;) {
      const health = await (await fetch(o.url + '/healthz', { headers: o.operatorToken === undefined ? {} : { authorization: `Bearer ${o.operatorToken}` } })).json() as { lag?: Record<string, number>, in_progress?: Record<string, number> }
      if (Object.values(health.lag ?? {}).every(n => n === 0) && Object.keys(health.in_progress ?? {}).length === 0) return
      await new Promise(resolve => setTimeout(resolve, 50))
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
      const day = dayNumber(t.timeMs)
      if (isTestDay(day)) measured.push({ day, card: t.customer, score: d.score!, label: t.fraud })
    })
    replayed += batch.length
    const last = batch[batch.length - 1]!
    batch = []
    await sendFeedback(last.timeMs)
    if (o.settleDaily === true && dayNumber(last.timeMs) !== settledDay) {
      settledDay = dayNumber(last.timeMs)
      await settle()
    }
    if (replayed % 20_000 < o.batchSize) o.progress(`replayed ${replayed} (${isoDay(dayNumber(last.timeMs))}), ${feedback} frauds fed back, ${Math.round(replayed / ((Date.now() - started) / 1000))} tx/s`)
  }

  for await (const t of readHandbookCsv(o.file)) {
    if (t.timeMs >= o.toMs) continue
    if (t.fraud === 1) { const day = dayNumber(t.timeMs); (fraudCards.get(day) ?? fraudCards.set(day, new Set()).get(day)!).add(t.customer) }
    if (t.timeMs < o.fromMs) continue
    batch.push(t)
    if (batch.length >= o.batchSize) await flush()
  }
  await flush()

  const weeks = testDays.map(start => weekFigures(measured, fraudCards, start, periods))
  return { replayed, feedback, weeks, mean: meanFigures(weeks) }
}
