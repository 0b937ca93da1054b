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
 * rejected, AUC and AP per group. With LABEL_NOISE (a share 0..0.5; LABEL_NOISE_SEED) it replays twice, each
 * time on a fresh service: with clean labels, then with that share of the dispositions wrong (docs/detection.md,
 * "Bad labels"), and prints both reports and a table of the figures of both runs and their difference.
 * ACCOUNTS_EXPORT=<file.jsonl.gz> also writes every replayed event's row and recorded features to that file
 * after the (clean) replay (src/app/replay/accounts-export.ts, for bench/model-groups.ts).
 *   npm run bench:accounts                          (the whole file, the four test weeks)
 *   ACCOUNTS_TO=2025-01-20 npm run bench:accounts   (a new tenant's first two weeks)
 *   LABEL_NOISE=0.1 npm run bench:accounts          (clean labels, then 10 % of them wrong)
 */
import path from 'node:path'
import { replayAccounts, type AccountsReplayReport } from '../src/app/replay/accounts.js'
import { accountsReportLines } from '../src/app/replay/accounts-report.js'
import { labelNoiseOf } from '../src/app/replay/replay-events.js'
import { formatFigure as f, noiseComparisonLines } from '../src/app/replay/report.js'
import { ACCOUNTS_BASELINES as BASELINES, ACCOUNTS_TEST_WEEKS, EVENT_GROUPS } from '../src/domain/detection-protocol-accounts.js'
import { DAY_MS, isoDay } from '../src/domain/detection-protocol.js'
import { OPERATOR_TOKEN, replayCleanAndNoisy } from './service.js'

const root = path.resolve(import.meta.dirname, '..')
const file = process.env.ACCOUNTS_FILE ?? path.resolve(root, '../shared/bench/accounts-events.csv.gz')
const day = (iso: string) => Date.parse(iso + 'T00:00:00Z')
const fromMs = day(process.env.ACCOUNTS_FROM ?? '2025-01-06')
const toMs = day(process.env.ACCOUNTS_TO ?? '2025-04-07')
const window = { fromMs: day(process.env.ACCOUNTS_WINDOW_FROM ?? isoDay(fromMs / DAY_MS)), toMs: day(process.env.ACCOUNTS_WINDOW_TO ?? isoDay(toMs / DAY_MS)) }
const weeks = (process.env.ACCOUNTS_WEEKS ?? ACCOUNTS_TEST_WEEKS.join(',')).split(',').map(day)
const replayedWeeks = weeks.filter(w => w >= fromMs && w + 7 * DAY_MS <= toMs)
const KEY = 'sk_test_accountsbenchkey00000000'

const noise = labelNoiseOf(process.env)
const runs = await replayCleanAndNoisy('accounts', KEY, noise, (url, labelNoise) => replayAccounts({
  file, url, key: KEY, operatorToken: OPERATOR_TOKEN, fromMs, toMs, testWeeksMs: replayedWeeks, window,
  batchSize: 500, settleDaily: true, labelNoise, exportTo: labelNoise === undefined ? process.env.ACCOUNTS_EXPORT : undefined, progress: line => process.stderr.write(line + '\n')
}))

for (const { report, seconds, noise: labelNoise } of runs) {
  if (noise !== undefined) console.log(labelNoise === undefined ? '\n== labels clean' : `\n== label noise ${labelNoise.share} (seed ${labelNoise.seed})`)
  printRun(report, seconds)
}

if (noise !== undefined && runs.length === 2) {
  const [clean, noisy] = runs.map(r => r.report) as [AccountsReplayReport, AccountsReplayReport]
  const means = clean.weeks.length === 0 ? [] : [
    ...EVENT_GROUPS.map(g => ({ name: `mean of ${clean.weeks.length} test weeks, AP ${g}`, clean: clean.mean.groups[g].ap, noisy: noisy.mean.groups[g].ap })),
    { name: `mean of ${clean.weeks.length} test weeks, account precision@100`, clean: clean.mean.accountPrecision100, noisy: noisy.mean.accountPrecision100 }
  ]
  console.log('\n' + noiseComparisonLines(noise, [
    ...means,
    ...EVENT_GROUPS.map(g => ({ name: `graded window, AP ${g}`, clean: clean.window.groups[g].ap, noisy: noisy.window.groups[g].ap })),
    { name: 'graded window, legitimate flagged or rejected, %', clean: 100 * clean.window.legitimateFlaggedShare, noisy: 100 * noisy.window.legitimateFlaggedShare }
  ]).join('\n'))
}

/** One run's report, the test weeks against the baselines, the window and the run's pace. */
function printRun (report: AccountsReplayReport, seconds: number): void {
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
}
