/**
 * How the account-events protocol trains its public baselines (docs/detection-protocol-accounts.md, "Public
 * baselines"), pure, for training other models the same way offline (bench/model-groups.ts): a model is
 * retrained at the first midnight of each test week on the events from day 7 of the file up to that midnight;
 * its labels are the frauds known by then (EVENT_TIME + LABEL_DELAY_DAYS before the midnight, as the protocol's
 * account precision counts an account known), every other event 0. Rows labelled 0 may be sampled and weighted
 * back, as the service's own tree trainer does; one model per event group trains on its group's events only.
 */
import { groupsOf, type EventGroup } from './detection-protocol-accounts.js'
import { DAY_MS } from './detection-protocol.js'

/** The first day of the file (0-based) a baseline trains on. */
export const BASELINE_FIRST_TRAINING_DAY = 7

/** An event as a baseline trains on it: its time (ms), its type and when its fraud became known (ms; none when legitimate). */
export interface TrainingEvent { timeMs: number, event: string, knownMs?: number }

/** The model an event is scored by when there is one per event group: its own group (`all` for a type the protocol does not name). */
export const modelGroupOf = (event: string): EventGroup => groupsOf(event)[0]!

export interface TrainingSelection {
  /** Day 0 of the file (ms, a UTC midnight). */
  fileStartMs: number
  /** When the model is retrained (ms): the first midnight of a test week. */
  midnightMs: number
  /** Whether the event at this index joins the training when labelled 0 (the same answer at every midnight). */
  keepNegative: (index: number) => boolean
  /** The weight of a row labelled 0 that joins: 1 / the share kept. */
  negativeWeight: number
  /** Only the events of this model group (modelGroupOf); every event when undefined. */
  group?: EventGroup
  /**
   * Another protocol, for comparison with the service's own: only the events of the `windowDays` (all from day 7
   * when undefined) ending `lagDays` (0 when undefined) before the midnight, as the service trains on the window
   * before its maturity horizon.
   */
  windowDays?: number
  lagDays?: number
}

export interface TrainingRow { index: number, label: 0 | 1, weight: number }

/** The rows (indexes into `events`) a model retrained at `midnightMs` trains on, with their labels and weights. */
export function trainingRows (events: readonly TrainingEvent[], s: TrainingSelection): TrainingRow[] {
  const toMs = s.midnightMs - (s.lagDays ?? 0) * DAY_MS
  const fromMs = Math.max(s.fileStartMs + BASELINE_FIRST_TRAINING_DAY * DAY_MS, s.windowDays === undefined ? -Infinity : toMs - s.windowDays * DAY_MS)
  const rows: TrainingRow[] = []
  events.forEach((e, index) => {
    if (e.timeMs < fromMs || e.timeMs >= toMs || (s.group !== undefined && modelGroupOf(e.event) !== s.group)) return
    if (e.knownMs !== undefined && e.knownMs < s.midnightMs) rows.push({ index, label: 1, weight: 1 })
    else if (s.keepNegative(index)) rows.push({ index, label: 0, weight: s.negativeWeight })
  })
  return rows
}

/** A systematic sample of a share of the indexes (every tenth at 0.1), deterministic: keepNegative of trainingRows. */
export const systematicSample = (share: number) => (index: number): boolean => Math.floor((index + 1) * share) > Math.floor(index * share)
