import { EVENT_GROUPS, type AccountsWeekFigures, type WindowFigures } from '../../domain/detection-protocol-accounts.js'
import { isoDay } from '../../domain/detection-protocol.js'
import type { AccountsReplayReport } from './accounts.js'
import { feedbackLine, formatFigure as f, windowCounts, windowHeading } from './report.js'

const count = (n: number, width: number) => String(n).padStart(width)

/** A window's lines: its events, legitimate events flagged or rejected, AUC and AP per group. */
function windowLines (w: WindowFigures): string[] {
  const lines = [
    windowCounts(w, 'events'),
    `${'group'.padEnd(22)}  events  frauds     AUC      AP`
  ]
  for (const g of EVENT_GROUPS) {
    const x = w.groups[g]
    lines.push(`${g.padEnd(22)} ${count(x.events, 7)} ${count(x.frauds, 7)}  ${x.skipped ? ' skipped (no fraud)' : `${f(x.auc)}  ${f(x.ap)}`}`)
  }
  return lines
}

function weekLines (w: AccountsWeekFigures): string[] {
  const lines = ['', `test week ${isoDay(w.startDay)}: ${windowLines(w)[0]}`, ...windowLines(w).slice(1)]
  lines.push(`${'day'.padEnd(12)} accounts  frauds  known, dropped  P@100`)
  for (const d of w.days) lines.push(`${isoDay(d.day).padEnd(12)} ${count(d.accounts, 8)} ${count(d.fraudAccounts, 7)} ${count(d.dropped, 15)}  ${f(d.precision)}`)
  lines.push(`account precision@100 of the week: ${f(w.accountPrecision100).trim()}`)
  return lines
}

/** The lines of an accounts replay's report: each test week, the mean over the weeks, the graded window. */
export function accountsReportLines (report: AccountsReplayReport): string[] {
  const lines = [feedbackLine(report, 'events')]
  for (const w of report.weeks) lines.push(...weekLines(w))
  if (report.weeks.length > 0) {
    lines.push('', `mean of ${report.weeks.length} test weeks (a group over the weeks it had fraud in)`, `${'group'.padEnd(22)}  weeks     AUC      AP`)
    for (const g of EVENT_GROUPS) {
      const m = report.mean.groups[g]
      lines.push(`${g.padEnd(22)} ${count(m.weeks, 6)}  ${f(m.auc)}  ${f(m.ap)}`)
    }
    lines.push(`account precision@100: ${f(report.mean.accountPrecision100).trim()}`)
  }
  const w = report.window
  lines.push('', `${windowHeading(w)}: ${windowLines(w)[0]}`, ...windowLines(w).slice(1))
  return lines
}
