import {
  accountsMeanFigures, accountsWeekFigures, noteKnownFraud, windowFigures,
  type AccountEventScored, type AccountsMeanFigures, type AccountsWeekFigures, type WindowFigures
} from '../../domain/detection-protocol-accounts.js'
import { DAY_MS, dayNumber } from '../../domain/detection-protocol.js'
import { exportAccountEvents, type ReplayedAccountEvent } from './accounts-export.js'
import { readCsvRows, replayEvents, runOf, type ReplayDay, type ReplayEvent, type ReplayOptionsBase, type WrongLabels } from './replay-events.js'

/**
 * The account-events benchmark's replay (docs/detection-protocol-accounts.md): each row becomes the score
 * request a client would send (every field mapped as the protocol's "Mapping to the API" says; the labels
 * FRAUD, SCENARIO and LABEL_DELAY_DAYS never sent), each fraud is fed back as a case disposition when the replay
 * reaches EVENT_TIME + LABEL_DELAY_DAYS (with `labelNoise` some labels wrong on purpose, replay-events.ts), and the decisions are graded with detection-protocol-accounts.ts.
 */

/** One row of the account-events file. Empty columns are undefined. */
export interface AccountEvent {
  id: string
  timeMs: number
  event: string
  user?: string
  device?: string
  ip?: string
  email?: string
  amount?: number
  currency?: string
  country?: string
  city?: string
  lat?: number
  lon?: number
  card?: string
  merchant?: string
  outcome?: string
  /** Labels: never sent. */
  fraud: 0 | 1
  /** When the fraud became known (ms): EVENT_TIME + LABEL_DELAY_DAYS; undefined for a legitimate event. */
  fraudKnownMs?: number
}

const COLUMNS = ['EVENT_ID', 'EVENT_TIME', 'EVENT', 'USER_ID', 'DEVICE_ID', 'IP', 'EMAIL', 'AMOUNT', 'CURRENCY', 'COUNTRY', 'CITY', 'LAT', 'LON', 'CARD', 'MERCHANT', 'OUTCOME', 'FRAUD', 'LABEL_DELAY_DAYS'] as const

/** Reads the file by its header's column names (gzipped when its name ends with .gz). */
export async function * readAccountEventsCsv (file: string): AsyncGenerator<AccountEvent> {
  let at: Record<typeof COLUMNS[number], number> | undefined
  const header = (names: string[]) => {
    at = Object.fromEntries(COLUMNS.map(c => [c, names.indexOf(c)])) as typeof at
    const missing = COLUMNS.filter(c => at![c] < 0)
    if (missing.length > 0) throw new Error(`${file}: no column ${missing.join(', ')}`)
  }
  /** Account ids and event types shared by all the rows that name them (not a copy per row). */
  const interned = new Map<string, string>()
  const intern = (s: string) => interned.get(s) ?? (interned.set(s, s), s)
  for await (const f of readCsvRows(file, header)) {
    const text = (c: typeof COLUMNS[number]) => f[at![c]] === '' ? undefined : f[at![c]]
    const number = (c: typeof COLUMNS[number]) => { const v = text(c); return v === undefined ? undefined : Number(v) }
    const timeMs = Date.parse(f[at!.EVENT_TIME]!.replace(' ', 'T') + 'Z')
    const fraud = f[at!.FRAUD] === '1' ? 1 : 0
    const user = text('USER_ID')
    yield {
      id: f[at!.EVENT_ID]!, timeMs, event: intern(f[at!.EVENT]!), user: user === undefined ? undefined : intern(user),
      device: text('DEVICE_ID'), ip: text('IP'), email: text('EMAIL'), amount: number('AMOUNT'), currency: text('CURRENCY'),
      country: text('COUNTRY'), city: text('CITY'), lat: number('LAT'), lon: number('LON'), card: text('CARD'), merchant: text('MERCHANT'),
      outcome: text('OUTCOME'), fraud, fraudKnownMs: fraud === 1 ? timeMs + Math.round(Number(f[at!.LABEL_DELAY_DAYS]) * DAY_MS) : undefined
    }
  }
}

/**
 * The score request of a row, as the protocol maps it: EVENT -> event, EVENT_TIME -> event_time (unix s),
 * USER_ID, DEVICE_ID, IP, EMAIL -> user_id, device_id, ip, email, AMOUNT, CURRENCY -> amount, currency,
 * COUNTRY, CITY, LAT, LON -> geo, CARD -> card_fingerprint and MERCHANT -> merchant_id (custom keys; a payout's
 * beneficiary), OUTCOME -> metadata.outcome. Empty columns are left out; no label is sent.
 */
export function accountEventRequest (e: AccountEvent): Record<string, unknown> {
  const geo = defined({ country: e.country, city: e.city, lat: e.lat, lon: e.lon })
  return defined({
    event: e.event, event_time: Math.floor(e.timeMs / 1000),
    user_id: e.user, device_id: e.device, ip: e.ip, email: e.email, amount: e.amount, currency: e.currency,
    geo: Object.keys(geo).length === 0 ? undefined : geo,
    card_fingerprint: e.card, merchant_id: e.merchant,
    metadata: e.outcome === undefined ? undefined : { outcome: e.outcome }
  })
}

export interface AccountsReplayOptions extends ReplayOptionsBase {
  /** A window graded as a whole (from <= time < to, ms): legitimate events flagged or rejected, AUC and AP per group. */
  window: { fromMs: number, toMs: number }
  /** After the replay, every replayed event's row and recorded features to this file (.jsonl.gz, accounts-export.ts). */
  exportTo?: string
}

export interface AccountsReplayReport {
  replayed: number
  feedback: number
  /** With label noise: the dispositions sent wrong on purpose. */
  wrongLabels?: WrongLabels
  /** The wall time of each replayed day. */
  days: ReplayDay[]
  weeks: AccountsWeekFigures[]
  mean: AccountsMeanFigures
  window: WindowFigures
}

export async function replayAccounts (o: AccountsReplayOptions): Promise<AccountsReplayReport> {
  const graded = (timeMs: number) => (timeMs >= o.window.fromMs && timeMs < o.window.toMs) ||
    o.testWeeksMs.some(start => timeMs >= start && timeMs < start + 7 * DAY_MS)
  const known = new Map<string, number>()
  const scored: AccountEventScored[] = []
  const replayedEvents = new Map<string, ReplayedAccountEvent>()

  /** Read twice with label noise (replayEvents): what it notes is the same either time. */
  async function * events (): AsyncGenerator<ReplayEvent & { e: AccountEvent }> {
    for await (const e of readAccountEventsCsv(o.file)) {
      if (e.timeMs >= o.toMs) continue
      if (e.fraudKnownMs !== undefined && e.user !== undefined) noteKnownFraud(known, e.user, e.fraudKnownMs)
      if (e.timeMs < o.fromMs) continue
      yield { e, timeMs: e.timeMs, request: accountEventRequest(e), fraudKnownMs: e.fraudKnownMs }
    }
  }
  const run = runOf(o, 'reported fraud', 'events')
  const { replayed, feedback, wrongLabels, days } = await replayEvents(events, run, ({ e }, d) => {
    if (graded(e.timeMs)) scored.push({ event: e.event, user: e.user ?? '', timeMs: e.timeMs, score: d.score, label: e.fraud, flagged: d.action === 'flag' || d.action === 'reject' })
    if (o.exportTo !== undefined) replayedEvents.set(d.traceId, { time_ms: e.timeMs, event: e.event, user_id: e.user ?? '', fraud: e.fraud, known_ms: e.fraudKnownMs ?? null, score: d.score })
  })
  if (o.exportTo !== undefined) {
    const started = Date.now()
    const { written, missing } = await exportAccountEvents(o.exportTo, replayedEvents, o)
    o.progress(`exported ${written} events with their recorded features to ${o.exportTo} in ${Math.round((Date.now() - started) / 1000)} s` + (missing > 0 ? `; ${missing} replayed events not found` : ''))
  }
  const weeks = o.testWeeksMs.map(start => accountsWeekFigures(scored, known, dayNumber(start)))
  return { replayed, feedback, ...(wrongLabels === undefined ? {} : { wrongLabels }), days, weeks, mean: accountsMeanFigures(weeks), window: windowFigures(scored, o.window.fromMs, o.window.toMs) }
}

/** The object without its undefined values. */
function defined<T extends Record<string, unknown>> (o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>
}
