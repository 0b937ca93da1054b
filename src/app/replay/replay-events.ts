import { createReadStream } from 'node:fs'
import { createInterface } from 'node:readline'
import { createGunzip } from 'node:zlib'
import { DAY_MS, dayNumber, isoDay } from '../../domain/detection-protocol.js'
import { uniform } from '../../domain/random.js'

/**
 * The replay of historical events through the real API, whatever the data set: events sent in event-time order
 * (POST /v1/score/batch), each fraud fed back as a case disposition once the replay's clock has reached the
 * time it became known, and at each new day of event time, optionally, a wait until the service's pipeline has
 * applied everything (as a day of real traffic would let it). The data sets' readers and graders are
 * replay.ts (card transactions) and accounts.ts (account events). Optionally a share of the labels is wrong on
 * purpose (LabelNoise): the labels an analyst gets wrong or an attacker reports falsely.
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
  /** Some labels wrong on purpose (labelsOf); none when undefined. */
  labelNoise?: LabelNoise
  progress: (line: string) => void
}

/** What every replay is told: where to send, how, and what to replay (a data set's own options extend it). */
export type ReplayOptionsBase = Pick<ReplayRun, 'url' | 'key' | 'batchSize' | 'settleDaily' | 'operatorToken' | 'labelNoise' | 'progress'> & {
  file: string
  /** Replay rows with from <= time < to (ms). */
  fromMs: number
  toMs: number
  /** The first days (ms, UTC midnight) of the test weeks graded with the data set's protocol. */
  testWeeksMs: readonly number[]
}

/** The run of a replay with these options. */
export const runOf = (o: ReplayOptionsBase, feedbackReason: string, noun: string): ReplayRun =>
  ({ url: o.url, key: o.key, batchSize: o.batchSize, settleDaily: o.settleDaily, operatorToken: o.operatorToken, feedbackReason, noun, labelNoise: o.labelNoise, progress: o.progress })

/** The wall time of each replayed day of event time (its batches, its feedback and the settle at its end). */
export interface ReplayDay { day: number, events: number, ms: number }
/** The dispositions sent wrong on purpose: frauds fed back as `safe`, legitimate events as `fraud`. */
export interface WrongLabels { safe: number, fraud: number }
export interface ReplayRunReport {
  replayed: number
  /** Frauds fed back as `fraud` dispositions. */
  feedback: number
  /** With label noise only. */
  wrongLabels?: WrongLabels
  days: ReplayDay[]
}

/**
 * Bad labels (docs/detection.md, "Bad labels: LABEL_NOISE"): about `share` (0..0.5) of the dispositions the
 * replay sends are wrong, half each way. Each fraud is fed back as `safe` with probability share / 2 (its case
 * still opened when it becomes known); each legitimate event is reported as a fraud with the probability that
 * makes their count about share / 2 times the number of frauds, its case opened at its event time plus a delay
 * drawn from the frauds' own delays (a false report looks like a real one in timing). Drawn from `seed`.
 */
export interface LabelNoise { share: number, seed: number }

export const DEFAULT_LABEL_NOISE_SEED = 35

/** The label noise an environment asks for: LABEL_NOISE (0..0.5; unset or 0: none) and LABEL_NOISE_SEED. */
export function labelNoiseOf (env: Record<string, string | undefined>): LabelNoise | undefined {
  const share = Number(env.LABEL_NOISE ?? '0')
  if (!(share >= 0 && share <= 0.5)) throw new Error(`LABEL_NOISE must be a share from 0 to 0.5, not '${env.LABEL_NOISE}'`)
  const seed = Number(env.LABEL_NOISE_SEED ?? DEFAULT_LABEL_NOISE_SEED)
  if (!Number.isSafeInteger(seed)) throw new Error(`LABEL_NOISE_SEED must be an integer, not '${env.LABEL_NOISE_SEED}'`)
  return share === 0 ? undefined : { share, seed }
}

/** What the noise is drawn to: the label delays (ms) of a replay's frauds, and how many legitimate events it holds. */
export interface LabelCounts { fraudDelaysMs: number[], legitimate: number }

export async function labelCounts (events: AsyncIterable<ReplayEvent>): Promise<LabelCounts> {
  const counts: LabelCounts = { fraudDelaysMs: [], legitimate: 0 }
  for await (const e of events) {
    if (e.fraudKnownMs === undefined) counts.legitimate++
    else counts.fraudDelaysMs.push(e.fraudKnownMs - e.timeMs)
  }
  return counts
}

/** A case disposition the replay sends: the case opened once the replay reaches `dueMs`, then closed with `outcome`. */
export interface ReplayLabel { dueMs: number, outcome: 'fraud' | 'safe', wrong: boolean }

/**
 * The label each event of a replay is fed back with (none: not fed back), to be called once per event in the
 * replay's order, before the event is scored. Without noise each fraud is fed back as `fraud` when it becomes
 * known. With noise (LabelNoise) every event draws one number, a legitimate event reported as fraud a second
 * one for its delay: which labels are wrong depends on the seed and the events' order and labels, never on a
 * score.
 */
export function labelsOf (noise: LabelNoise | undefined, counts: LabelCounts): (e: ReplayEvent) => ReplayLabel | undefined {
  const truth = (e: ReplayEvent): ReplayLabel | undefined => e.fraudKnownMs === undefined ? undefined : { dueMs: e.fraudKnownMs, outcome: 'fraud', wrong: false }
  if (noise === undefined || noise.share === 0) return truth
  const next = uniform(noise.seed)
  const flip = noise.share / 2
  const delays = counts.fraudDelaysMs
  const report = counts.legitimate === 0 ? 0 : Math.min(1, flip * delays.length / counts.legitimate)
  return e => {
    const drawn = next()
    if (e.fraudKnownMs !== undefined) return drawn < flip ? { dueMs: e.fraudKnownMs, outcome: 'safe', wrong: true } : truth(e)
    if (drawn >= report) return undefined
    return { dueMs: e.timeMs + delays[Math.floor(next() * delays.length)]!, outcome: 'fraud', wrong: true }
  }
}

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
 * Replays `events()` (in event-time order) through the API; `decided` receives each event with its decision.
 * Batches never straddle a UTC midnight: at each one, the labels due by then are fed back (labelsOf) and
 * (settleDaily) the pipeline is waited for before the new day's first event. With label noise the events are
 * read twice: first to count the frauds and their delays (labelCounts).
 */
export async function replayEvents<E extends ReplayEvent> (events: () => AsyncIterable<E>, run: ReplayRun, decided: (event: E, decision: ReplayDecision) => void): Promise<ReplayRunReport> {
  const headers = { authorization: `Bearer ${run.key}`, 'content-type': 'application/json' }
  const post = async (path: string, body: unknown) => {
    const res = await fetch(run.url + path, { method: 'POST', headers, body: JSON.stringify(body) })
    return { status: res.status, json: await res.json() as any }
  }
  const noun = run.noun ?? 'events'
  const labelOf = labelsOf(run.labelNoise, run.labelNoise === undefined ? { fraudDelaysMs: [], legitimate: 0 } : await labelCounts(events()))
  /** Labels to feed back, by increasing time due. */
  const pending: Array<{ label: ReplayLabel, traceId: string }> = []
  const days: ReplayDay[] = []
  let replayed = 0
  let feedback = 0
  const wrongLabels: WrongLabels = { safe: 0, fraud: 0 }
  let batch: Array<{ e: E, label: ReplayLabel | undefined }> = []
  let nextProgress = 20_000
  const started = Date.now()

  const sendFeedback = async (nowMs: number) => {
    while (pending.length > 0 && pending[0]!.label.dueMs <= nowMs) {
      const { label, traceId } = pending.shift()!
      const opened = await post('/v1/cases', { trace_id: traceId, reason: run.feedbackReason })
      const caseId = opened.status === 200 ? opened.json.id : opened.json.error?.code === 'resource_exists' ? 'case_' + traceId.slice(4) : undefined
      if (caseId === undefined || (await post(`/v1/cases/${caseId}/disposition`, { outcome: label.outcome, analyst: 'replay', reason: run.feedbackReason })).status !== 200) continue
      if (label.wrong) wrongLabels[label.outcome]++
      else feedback++
    }
  }
  const awaitFeedback = (label: ReplayLabel, traceId: string) => {
    let lo = 0
    let hi = pending.length
    while (lo < hi) { const mid = (lo + hi) >> 1; if (pending[mid]!.label.dueMs <= label.dueMs) lo = mid + 1; else hi = mid }
    pending.splice(lo, 0, { label, traceId })
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
    const res = await post('/v1/score/batch', { events: batch.map(({ e }) => e.request) })
    if (res.status !== 200) throw new Error(`batch refused: ${res.status} ${JSON.stringify(res.json)}`)
    res.json.data.forEach((d: { score?: number, action?: string, trace_id?: string, error?: unknown }, i: number) => {
      const { e, label } = batch[i]!
      if (d.trace_id === undefined) throw new Error(`event ${JSON.stringify(e.request)} refused: ${JSON.stringify(d.error)}`)
      if (label !== undefined) awaitFeedback(label, d.trace_id)
      decided(e, { score: d.score!, action: d.action!, traceId: d.trace_id })
    })
    replayed += batch.length
    const last = batch[batch.length - 1]!.e
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
  for await (const e of events()) {
    const eventDay = dayNumber(e.timeMs)
    if (day !== undefined && eventDay !== day.day) await endDay(eventDay)
    if (day === undefined || eventDay !== day.day) { day = { day: eventDay, events: 0, ms: 0 }; dayStarted = Date.now() }
    day.events++
    batch.push({ e, label: labelOf(e) })
    if (batch.length >= run.batchSize) await flush()
  }
  if (day !== undefined) await endDay()
  return { replayed, feedback, ...(run.labelNoise === undefined ? {} : { wrongLabels }), days }
}
