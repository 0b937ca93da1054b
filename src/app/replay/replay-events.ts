import { createReadStream } from 'node:fs'
import { createInterface } from 'node:readline'
import { createGunzip } from 'node:zlib'
import { DAY_MS, dayNumber, isoDay } from '../../domain/detection-protocol.js'

/**
 * The replay of historical events through the real API, whatever the data set: events sent in event-time order
 * (POST /v1/score/batch), each fraud fed back as a case disposition once the replay's clock has reached the
 * time it became known, and at each new day of event time, optionally, a wait until the service's pipeline has
 * applied everything (as a day of real traffic would let it). The data sets' readers and graders are
 * replay.ts (card transactions) and accounts.ts (account events).
 */

/** One event to replay: the score request a client would send, and when its fraud becomes known (ms; none when legitimate). */
export interface ReplayEvent { timeMs: number, request: Record<string, unknown>, fraudKnownMs?: number }

export interface ReplayDecision { score: number, action: string, traceId: string }

export interface ReplayRun {
  url: string
  key: string
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
  /** The reason of the cases that feed frauds back. */
  feedbackReason: string
  /** What the progress lines call an event. */
  noun?: string
  progress: (line: string) => void
}

/** What every replay is told: where to send, how, and what to replay (a data set's own options extend it). */
export type ReplayOptionsBase = Pick<ReplayRun, 'url' | 'key' | 'batchSize' | 'settleDaily' | 'operatorToken' | 'progress'> & {
  file: string
  /** Replay rows with from <= time < to (ms). */
  fromMs: number
  toMs: number
  /** The first days (ms, UTC midnight) of the test weeks graded with the data set's protocol. */
  testWeeksMs: readonly number[]
}

/** The run of a replay with these options. */
export const runOf = (o: ReplayOptionsBase, feedbackReason: string, noun: string): ReplayRun =>
  ({ url: o.url, key: o.key, batchSize: o.batchSize, settleDaily: o.settleDaily, operatorToken: o.operatorToken, feedbackReason, noun, progress: o.progress })

/** The wall time of each replayed day of event time (its batches, its feedback and the settle at its end). */
export interface ReplayDay { day: number, events: number, ms: number }
export interface ReplayRunReport { replayed: number, feedback: number, days: ReplayDay[] }

/**
 * The rows of a CSV file (gzipped when its name ends with .gz) without quoting, split on commas; the header row
 * goes to `header` (when given), not to the rows.
 */
export async function * readCsvRows (file: string, header?: (names: string[]) => void): AsyncGenerator<string[]> {
  let first = true
  for await (const line of readLines(file)) {
    if (first) { first = false; header?.(line.split(',')); continue }
    if (line !== '') yield line.split(',')
  }
}

/** The lines of a text file, gzipped when its name ends with .gz. */
export function readLines (file: string): AsyncIterable<string> {
  const source = createReadStream(file)
  const input = file.endsWith('.gz') ? source.pipe(createGunzip()) : source
  if (input !== source) source.once('error', err => input.destroy(err)) // pipe() does not pass a read error on
  return createInterface({ input, crlfDelay: Infinity })
}

/**
 * Replays `events` (in event-time order) through the API; `decided` receives each event with its decision.
 * Batches never straddle a UTC midnight: at each one, the frauds known by then are fed back and (settleDaily)
 * the pipeline is waited for before the new day's first event.
 */
export async function replayEvents<E extends ReplayEvent> (events: AsyncIterable<E>, run: ReplayRun, decided: (event: E, decision: ReplayDecision) => void): Promise<ReplayRunReport> {
  const headers = { authorization: `Bearer ${run.key}`, 'content-type': 'application/json' }
  const post = async (path: string, body: unknown) => {
    const res = await fetch(run.url + path, { method: 'POST', headers, body: JSON.stringify(body) })
    return { status: res.status, json: await res.json() as any }
  }
  const noun = run.noun ?? 'events'
  /** Frauds to feed back, by increasing time known. */
  const pending: Array<{ dueMs: number, traceId: string }> = []
  const days: ReplayDay[] = []
  let replayed = 0
  let feedback = 0
  let batch: E[] = []
  let nextProgress = 20_000
  const started = Date.now()

  const sendFeedback = async (nowMs: number) => {
    while (pending.length > 0 && pending[0]!.dueMs <= nowMs) {
      const { traceId } = pending.shift()!
      const opened = await post('/v1/cases', { trace_id: traceId, reason: run.feedbackReason })
      const caseId = opened.status === 200 ? opened.json.id : opened.json.error?.code === 'resource_exists' ? 'case_' + traceId.slice(4) : undefined
      if (caseId !== undefined && (await post(`/v1/cases/${caseId}/disposition`, { outcome: 'fraud', analyst: 'replay', reason: run.feedbackReason })).status === 200) feedback++
    }
  }
  const awaitFeedback = (dueMs: number, traceId: string) => {
    let lo = 0
    let hi = pending.length
    while (lo < hi) { const mid = (lo + hi) >> 1; if (pending[mid]!.dueMs <= dueMs) lo = mid + 1; else hi = mid }
    pending.splice(lo, 0, { dueMs, traceId })
  }
  /** Until no consumer group of the service lags (at most a minute). */
  const settle = async () => {
    for (const until = Date.now() + 60_000; Date.now() < until;) {
      const health = await (await fetch(run.url + '/healthz', { headers: run.operatorToken === undefined ? {} : { authorization: `Bearer ${run.operatorToken}` } })).json() as { lag?: Record<string, number>, in_progress?: Record<string, number> }
      if (Object.values(health.lag ?? {}).every(n => n === 0) && Object.keys(health.in_progress ?? {}).length === 0) return
      await new Promise(resolve => setTimeout(resolve, 50))
    }
  }
  const flush = async () => {
    if (batch.length === 0) return
    const res = await post('/v1/score/batch', { events: batch.map(e => e.request) })
    if (res.status !== 200) throw new Error(`batch refused: ${res.status} ${JSON.stringify(res.json)}`)
    res.json.data.forEach((d: { score?: number, action?: string, trace_id?: string, error?: unknown }, i: number) => {
      const e = batch[i]!
      if (d.trace_id === undefined) throw new Error(`event ${JSON.stringify(e.request)} refused: ${JSON.stringify(d.error)}`)
      if (e.fraudKnownMs !== undefined) awaitFeedback(e.fraudKnownMs, d.trace_id)
      decided(e, { score: d.score!, action: d.action!, traceId: d.trace_id })
    })
    replayed += batch.length
    const last = batch[batch.length - 1]!
    batch = []
    await sendFeedback(last.timeMs)
    if (replayed >= nextProgress) {
      nextProgress += 20_000
      run.progress(`replayed ${replayed} ${noun} (${isoDay(dayNumber(last.timeMs))}), ${feedback} frauds fed back, ${Math.round(replayed / ((Date.now() - started) / 1000))} ${noun}/s`)
    }
  }

  let day: ReplayDay | undefined
  let dayStarted = 0
  const endDay = async (nextDay?: number) => {
    await flush()
    if (nextDay !== undefined) await sendFeedback(nextDay * DAY_MS)
    if (run.settleDaily === true) await settle()
    day!.ms = Date.now() - dayStarted
    days.push(day!)
  }
  for await (const e of events) {
    const eventDay = dayNumber(e.timeMs)
    if (day !== undefined && eventDay !== day.day) await endDay(eventDay)
    if (day === undefined || eventDay !== day.day) { day = { day: eventDay, events: 0, ms: 0 }; dayStarted = Date.now() }
    day.events++
    batch.push(e)
    if (batch.length >= run.batchSize) await flush()
  }
  if (day !== undefined) await endDay()
  return { replayed, feedback, days }
}
