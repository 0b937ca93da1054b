/**
 * Detection quality on the account-events simulation (signups, logins, payments, payouts, account updates; the
 * data file is not in the repository: ACCOUNTS_FILE, by default ../shared/bench/accounts-events.csv.gz beside the
 * checkout; the protocol is docs/detection-protocol-accounts.md): replays ACCOUNTS_FROM..ACCOUNTS_TO (exclusive)
 * through the real API of a fresh service process (embedded transport, RECORDED_TIME=event_time so labels mature
 * in the replay's time) in event-time order, every column mapped onto the request as the protocol says, each
 * fraud fed back as a case disposition at EVENT_TIME + LABEL_DELAY_DAYS, waiting at each new day until the
 * pipeline has caught up; then grades the test weeks of ACCOUNTS_WEEKS that were replayed whole (per event
 * group AUC and AP, account precision@100 per day) next to the protocol's two baselines, and the window
 * ACCOUNTS_WINDOW_FROM..ACCOUNTS_WINDOW_TO (by default the replayed days): legitimate events flagged or
 * rejected, AUC and AP per group. ACCOUNTS_EXPORT=<file.jsonl.gz> also writes every replayed event's row and
 * recorded features to that file after the replay (src/app/replay/accounts-export.ts, for bench/model-groups.ts).
 *   npm run bench:accounts                          (the whole file, the four test weeks)
 *   ACCOUNTS_TO=2025-01-20 npm run bench:accounts   (a new tenant's first two weeks)
 */
import path from 'node:path'
import { replayAccounts } from '../src/app/replay/accounts.js'
import { accountsReportLines } from '../src/app/replay/accounts-report.js'
import { formatFigure as f } from '../src/app/replay/report.js'
import { ACCOUNTS_BASELINES as BASELINES, ACCOUNTS_TEST_WEEKS, EVENT_GROUPS } from '../src/domain/detection-protocol-accounts.js'
import { DAY_MS, isoDay } from '../src/domain/detection-protocol.js'
import { OPERATOR_TOKEN, startReplayService } from './service.js'

const root = path.resolve(import.meta.dirname, '..')
const file = process.env.ACCOUNTS_FILE ?? path.resolve(root, '../shared/bench/accounts-events.csv.gz')
const day = (iso: string) => Date.parse(iso + 'T00:00:00Z')
const fromMs = day(process.env.ACCOUNTS_FROM ?? '2025-01-06')
const toMs = day(process.env.ACCOUNTS_TO ?? '2025-04-07')
const window = { fromMs: day(process.env.ACCOUNTS_WINDOW_FROM ?? isoDay(fromMs / DAY_MS)), toMs: day(process.env.ACCOUNTS_WINDOW_TO ?? isoDay(toMs / DAY_MS)) }
const weeks = (process.env.ACCOUNTS_WEEKS ?? ACCOUNTS_TEST_WEEKS.join(',')).split(',').map(day)
const replayedWeeks = weeks.filter(w => w >= fromMs && w + 7 * DAY_MS <= toMs)
const KEY = 'sk_test_accountsbenchkey00000000'

const service = await startReplayService('accounts', KEY)
try {
  const startedAt = Date.now()
  const report = await replayAccounts({
    file, url: service.url, key: KEY, operatorToken: OPERATOR_TOKEN, fromMs, toMs, testWeeksMs: replayedWeeks, window,
    batchSize: 500, settleDaily: true, exportTo: process.env.ACCOUNTS_EXPORT, progress: line => process.stderr.write(line + '\n')
  })
  const seconds = (Date.now() - startedAt) / 1000
  console.log(`\n${accountsReportLines(report).join('\n')}`)
  const skippedWeeks = weeks.filter(w => !replayedWeeks.includes(w))
  if (skippedWeeks.length > 0) console.log(`\n(test weeks not replayed whole, not graded: ${skippedWeeks.map(w => isoDay(w / DAY_MS)).join(', ')})`)

  if (report.weeks.length > 0) {
    const better = (pick: (b: typeof BASELINES[number]) => number) => BASELINES.reduce((a, b) => pick(b) > pick(a) ? b : a)
    const verdict = (service: number, baseline: number) => Number.isNaN(service) ? 'n/a' : service > baseline ? `service (+${(service - baseline).toFixed(3)})` : `baseline (${(service - baseline).toFixed(3)})`
    console.log(`\nmean of ${report.weeks.length} test weeks        this service        logistic reg.         XGBoost    better on AP`)
    console.log(`${'group'.padEnd(22)}     AUC      AP      AUC      AP      AUC      AP`)
    for (const g of EVENT_GROUPS) {
      const m = report.mean.groups[g]
      const [lr, xgb] = BASELINES.map(b => b.groups[g])
      const best = better(b => b.groups[g][1])
      console.log(`${g.padEnd(22)}  ${f(m.auc)}  ${f(m.ap)}   ${f(lr![0])}  ${f(lr![1])}   ${f(xgb![0])}  ${f(xgb![1])}    ${verdict(m.ap, best.groups[g][1])} vs ${best.name}`)
    }
    const best = better(b => b.accountPrecision100)
    console.log(`${'account precision@100'.padEnd(22)}          ${f(report.mean.accountPrecision100)}            ${f(BASELINES[0]!.accountPrecision100)}            ${f(BASELINES[1]!.accountPrecision100)}    ${verdict(report.mean.accountPrecision100, best.accountPrecision100)} vs ${best.name}`)
  }

  const w = report.window
  console.log(`\ngraded window ${isoDay(w.fromMs / DAY_MS)}..${isoDay(w.toMs / DAY_MS - 1)}: legitimate events flagged or rejected ${(100 * w.legitimateFlaggedShare).toFixed(2)} %, AUC (all events) ${f(w.groups.all.auc).trim()}`)
  const daySeconds = report.days.map(d => d.ms / 1000)
  const last = daySeconds.slice(-7)
  const perDay = last.reduce((a, b) => a + b, 0) / Math.max(1, last.length)
  const fileDays = 91
  console.log(`\n${report.replayed} events over ${report.days.length} days in ${Math.round(seconds)} s (${Math.round(report.replayed / seconds)} events/s); ` +
    `a day took ${(daySeconds.reduce((a, b) => a + b, 0) / Math.max(1, daySeconds.length)).toFixed(1)} s on average, the slowest ${Math.max(0, ...daySeconds).toFixed(1)} s, the last 7 ${perDay.toFixed(1)} s` +
    (report.days.length < fileDays ? `; at the last 7 days' pace the file's ${fileDays} days would take about ${Math.round((seconds + (fileDays - report.days.length) * perDay) / 60)} min` : ''))
} finally {
  service.child.kill('SIGTERM')
}
