import { isoDay } from '../../domain/detection-protocol.js'
import type { ReplayReport } from './replay.js'

/** A metric as the reports print it: three decimals, `n/a` when undefined (a class missing). */
export const formatFigure = (x: number) => Number.isNaN(x) ? '   n/a' : x.toFixed(3).padStart(6)

/** The lines of a replay's report: each test week's days and totals, then the mean over the weeks. */
export function reportLines (report: ReplayReport): string[] {
  const lines = [`replayed ${report.replayed} transactions, ${report.feedback} frauds fed back as case dispositions`]
  for (const week of report.weeks) {
    lines.push('', `test week ${isoDay(week.startDay)}: ${week.transactions} transactions, ${week.frauds} frauds, ${week.removed} of cards known compromised removed`)
    lines.push('day             tx  frauds     AUC      AP  CP@100')
    for (const d of week.days) lines.push(`${isoDay(d.day)}  ${String(d.transactions).padStart(7)}  ${String(d.frauds).padStart(6)}  ${formatFigure(d.auc)}  ${formatFigure(d.ap)}  ${formatFigure(d.cardPrecision100)}`)
    lines.push(`week                             ${formatFigure(week.auc)}  ${formatFigure(week.ap)}  ${formatFigure(week.cardPrecision100)}`)
  }
  if (report.weeks.length > 1) lines.push('', `mean of ${report.weeks.length} test weeks             ${formatFigure(report.mean.auc)}  ${formatFigure(report.mean.ap)}  ${formatFigure(report.mean.cardPrecision100)}`)
  return lines
}
