import type { CardScored } from '../../domain/detection-metrics.js'
import { BOOK_PERIODS, dayNumber, meanFigures, weekFigures, type ProtocolPeriods, type WeekFigures } from '../../domain/detection-protocol.js'
import { windowFigures, type AccountEventScored, type WindowFigures } from '../../domain/detection-protocol-accounts.js'
import { readCsvRows, replayEvents, runOf, type ReplayEvent, type ReplayOptionsBase, type WrongLabels } from './replay-events.js'

/** One row of the handbook data set (see docs/detection-protocol-cards.md). */
export interface HistoricalTransaction { id: string, timeMs: number, customer: string, terminal: string, amount: number, fraud: 0 | 1 }

export interface ReplayOptions extends ReplayOptionsBase {
  periods?: ProtocolPeriods
  /** Labels reach the service this long after the transaction (the book: 7 days). */
  feedbackDelayMs: number
  /** A window graded as a whole (ms, the end exclusive): legitimate transactions flagged or rejected, AUC, AP. */
  window?: { fromMs: number, toMs: number }
}

export interface ReplayReport { replayed: number, feedback: number, wrongLabels?: WrongLabels, weeks: WeekFigures[], mean: { auc: number, ap: number, cardPrecision100: number }, window?: WindowFigures }

export async function * readHandbookCsv (file: string): AsyncGenerator<HistoricalTransaction> {
  for await (const [id, time, customer, terminal, amount, fraud] of readCsvRows(file)) {
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
 * reported late; with `labelNoise` some labels wrong on purpose, replay-events.ts). The decisions of each test week are measured with the book's protocol (detection-protocol.ts):
 * AUC ROC, average precision, card precision@100, with the cards known compromised from the file's labels.
 */
export async function replay (o: ReplayOptions): Promise<ReplayReport> {
  const periods = o.periods ?? BOOK_PERIODS
  const testDays = o.testWeeksMs.map(dayNumber)
  const isTestDay = (day: number) => testDays.some(start => day >= start && day < start + periods.testDays)
  const measured: CardScored[] = []
  const fraudCards = new Map<number, Set<string>>()

  /** Read twice with label noise (replayEvents): what it notes is the same either time. */
  async function * transactions (): AsyncGenerator<ReplayEvent & { t: HistoricalTransaction }> {
    for await (const t of readHandbookCsv(o.file)) {
      if (t.timeMs >= o.toMs) continue
      if (t.fraud === 1) { const day = dayNumber(t.timeMs); (fraudCards.get(day) ?? fraudCards.set(day, new Set()).get(day)!).add(t.customer) }
      if (t.timeMs < o.fromMs) continue
      yield { t, timeMs: t.timeMs, request: scoreEventOf(t), fraudKnownMs: t.fraud === 1 ? t.timeMs + o.feedbackDelayMs : undefined }
    }
  }
  const run = runOf(o, 'chargeback', 'transactions')
  const inWindow: AccountEventScored[] = []
  const { replayed, feedback, wrongLabels } = await replayEvents(transactions, run, ({ t }, d) => {
    const day = dayNumber(t.timeMs)
    if (isTestDay(day)) measured.push({ day, card: t.customer, score: d.score, label: t.fraud })
    if (o.window !== undefined && t.timeMs >= o.window.fromMs && t.timeMs < o.window.toMs) {
      inWindow.push({ event: 'payment', user: t.customer, timeMs: t.timeMs, score: d.score, label: t.fraud, flagged: d.action === 'flag' || d.action === 'reject' })
    }
  })
  const weeks = testDays.map(start => weekFigures(measured, fraudCards, start, periods))
  const window = o.window === undefined ? {} : { window: windowFigures(inWindow, o.window.fromMs, o.window.toMs) }
  return { replayed, feedback, ...(wrongLabels === undefined ? {} : { wrongLabels }), weeks, mean: meanFigures(weeks), ...window }
}
