import { DAY_MS, isoDay } from '../../domain/detection-protocol.js'
import type { WindowFigures } from '../../domain/detection-protocol-accounts.js'
import type { LabelNoise, WrongLabels } from './replay-events.js'
import type { ReplayReport } from './replay.js'

/** A metric as the reports print it: three decimals, `n/a` when undefined (a class missing). */
export const formatFigure = (x: number) => Number.isNaN(x) ? '   n/a' : x.toFixed(3).padStart(6)

/** A share as the reports print it: a percentage to two decimals, `n/a` when undefined (nothing to share). */
const percent = (x: number) => Number.isNaN(x) ? 'n/a' : (100 * x).toFixed(2) + ' %'

/** A graded window's days, as both reports head it (`graded window 2025-01-06..2025-04-06`). */
export const windowHeading = (w: WindowFigures) => `graded window ${isoDay(Math.floor(w.fromMs / DAY_MS))}..${isoDay(Math.ceil(w.toMs / DAY_MS) - 1)}`

/** A window's (or test week's) counts: its events, frauds and the legitimate ones flagged or rejected. */
export const windowCounts = (w: WindowFigures, noun: string) =>
  `${w.events} ${noun}, ${w.frauds} frauds; legitimate ${noun} flagged or rejected: ${w.legitimateFlagged} of ${w.legitimate} (${percent(w.legitimateFlaggedShare)})`

/** The first line of a replay's report: what it replayed and fed back, and the labels sent wrong on purpose. */
export function feedbackLine (report: { replayed: number, feedback: number, wrongLabels?: WrongLabels }, noun: string): string {
  const wrong = report.wrongLabels
  return `replayed ${report.replayed} ${noun}, ${report.feedback} frauds fed back as case dispositions` +
    (wrong === undefined ? '' : `; wrong on purpose: ${wrong.safe} frauds fed back as safe, ${wrong.fraud} legitimate ${noun} reported as fraud`)
}

/** The lines of a replay's report: each test week's days and totals, then the mean over the weeks. */
export function reportLines (report: ReplayReport): string[] {
  const lines = [feedbackLine(report, 'transactions')]
  for (const week of report.weeks) {
    lines.push('', `test week ${isoDay(week.startDay)}: ${week.transactions} transactions, ${week.frauds} frauds, ${week.removed} of cards known compromised removed`)
    lines.push('day             tx  frauds     AUC      AP  CP@100')
    for (const d of week.days) lines.push(`${isoDay(d.day)}  ${String(d.transactions).padStart(7)}  ${String(d.frauds).padStart(6)}  ${formatFigure(d.auc)}  ${formatFigure(d.ap)}  ${formatFigure(d.cardPrecision100)}`)
    lines.push(`week                             ${formatFigure(week.auc)}  ${formatFigure(week.ap)}  ${formatFigure(week.cardPrecision100)}`)
  }
  if (report.weeks.length > 1) lines.push('', `mean of ${report.weeks.length} test weeks             ${formatFigure(report.mean.auc)}  ${formatFigure(report.mean.ap)}  ${formatFigure(report.mean.cardPrecision100)}`)
  const w = report.window
  if (w !== undefined) lines.push('', `${windowHeading(w)}: ${windowCounts(w, 'transactions')}; AUC ${formatFigure(w.groups.all.auc).trim()}, AP ${formatFigure(w.groups.all.ap).trim()}`)
  return lines
}

/** One figure of the run with clean labels and the same of the run with label noise. */
export interface NoiseComparison { name: string, clean: number, noisy: number }

/** The table of a clean run against a noisy one: each figure of both, and the difference. */
export function noiseComparisonLines (noise: LabelNoise, rows: readonly NoiseComparison[]): string[] {
  const width = Math.max(30, ...rows.map(r => r.name.length))
  /** Signed, three decimals; a difference that rounds to 0 is +0.000. */
  const difference = (x: number) => { const r = Number(x.toFixed(3)); return Number.isNaN(r) ? 'n/a' : (r >= 0 ? '+' : '') + r.toFixed(3) }
  const half = noise.share / 2
  return [
    `clean labels against label noise ${noise.share} (seed ${noise.seed}): frauds fed back as safe at ${half}, legitimate events reported as fraud about ${half} times the frauds`,
    `${''.padEnd(width)}   clean   noisy  noisy - clean`,
    ...rows.map(r => `${r.name.padEnd(width)}  ${formatFigure(r.clean)}  ${formatFigure(r.noisy)}  ${difference(r.noisy - r.clean).padStart(13)}`)
  ]
}
