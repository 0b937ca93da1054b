/**
 * The evaluation protocol of the Fraud Detection Handbook (Le Borgne et al., `get_train_test_set` and
 * `performance_assessment` in its shared functions), pure. A test week follows a training week and a delay
 * (7 days each in the book). The transactions of cards already known compromised are dropped from the test
 * set: cards with a fraud in the training week, and on the test week's day d (0-based) also cards with a fraud
 * on training start + train + d - 1, cumulatively; so on each test day the frauds of the days up to
 * delay + 1 days before it are known. AUC ROC and average precision are taken over the whole remaining week,
 * card precision@100 per day (`cardPrecisionAtK`) and averaged over the week's days.
 */
import { aucRoc, averagePrecision, cardPrecisionAtK, type CardScored } from './detection-metrics.js'

export const DAY_MS = 86_400_000

export interface ProtocolPeriods { trainDays: number, delayDays: number, testDays: number }
export const BOOK_PERIODS: ProtocolPeriods = { trainDays: 7, delayDays: 7, testDays: 7 }

/** The cards with a fraud on each day (UTC day numbers), over every day replayed. */
export type FraudCardsByDay = ReadonlyMap<number, ReadonlySet<string>>

export interface DayFigures { day: number, transactions: number, frauds: number, auc: number, ap: number, cardPrecision100: number }
export interface WeekFigures { startDay: number, transactions: number, removed: number, frauds: number, auc: number, ap: number, cardPrecision100: number, days: DayFigures[] }

/** The test set of the week starting `startDay`: the scored transactions of its days, less known compromised cards. */
export function testSet (scored: readonly CardScored[], fraudCards: FraudCardsByDay, startDay: number, periods: ProtocolPeriods = BOOK_PERIODS): CardScored[] {
  const trainStart = startDay - periods.delayDays - periods.trainDays
  const known = new Set<string>()
  const addFraudsOf = (day: number) => { for (const card of fraudCards.get(day) ?? []) known.add(card) }
  for (let day = trainStart; day < trainStart + periods.trainDays; day++) addFraudsOf(day)
  const byDay = new Map<number, CardScored[]>()
  for (const s of scored) if (s.day >= startDay && s.day < startDay + periods.testDays) (byDay.get(s.day) ?? byDay.set(s.day, []).get(s.day)!).push(s)
  const out: CardScored[] = []
  for (let d = 0; d < periods.testDays; d++) {
    addFraudsOf(trainStart + periods.trainDays + d - 1)
    for (const s of byDay.get(startDay + d) ?? []) if (!known.has(s.card)) out.push(s)
  }
  return out
}

/** The book's figures for the test week starting `startDay`, and per day of it. */
export function weekFigures (scored: readonly CardScored[], fraudCards: FraudCardsByDay, startDay: number, periods: ProtocolPeriods = BOOK_PERIODS): WeekFigures {
  const week = testSet(scored, fraudCards, startDay, periods)
  const all = scored.filter(s => s.day >= startDay && s.day < startDay + periods.testDays).length
  const perDay = cardPrecisionAtK(week, 100)
  const days = perDay.map(({ day, precision }) => {
    const items = week.filter(s => s.day === day)
    return { day, transactions: items.length, frauds: frauds(items), auc: aucRoc(items), ap: averagePrecision(items), cardPrecision100: precision }
  })
  return {
    startDay, transactions: week.length, removed: all - week.length, frauds: frauds(week),
    auc: aucRoc(week), ap: averagePrecision(week), cardPrecision100: mean(perDay.map(p => p.precision)), days
  }
}

/** The mean of each figure over several test weeks (the book's prequential assessment). */
export function meanFigures (weeks: readonly WeekFigures[]): { auc: number, ap: number, cardPrecision100: number } {
  return { auc: mean(weeks.map(w => w.auc)), ap: mean(weeks.map(w => w.ap)), cardPrecision100: mean(weeks.map(w => w.cardPrecision100)) }
}

export const dayNumber = (ms: number) => Math.floor(ms / DAY_MS)
export const isoDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10)

const frauds = (items: readonly CardScored[]) => items.reduce((n, s) => n + s.label, 0)
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
