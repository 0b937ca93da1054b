/**
 * Detection quality on the Fraud Detection Handbook's simulated card transactions (the data file is not in the
 * repository: DETECTION_FILE, by default ../shared/bench/ beside the checkout; the protocol is
 * docs/detection-protocol-cards.md): replays
 * DETECTION_FROM..DETECTION_TO through the real API (its own process, embedded transport, fresh state, recording
 * each decision at its event time: RECORDED_TIME=event_time, so labels mature in the replay's time) in
 * event-time order (waiting at each new day until the pipeline has caught up, as a day of real traffic would let
 * it), frauds fed back as case dispositions after 7 days, and grades the scores with the book's
 * protocol (src/domain/detection-protocol.ts) on each test week of DETECTION_WEEKS: the book's test week
 * (08-08..08-14) and the four weeks of its prequential model selection (08-08..09-04), next to its baselines.
 * With LABEL_NOISE (a share 0..0.5; LABEL_NOISE_SEED) it replays twice, each time on a fresh service: with clean
 * labels, then with that share of the dispositions wrong (docs/detection.md, "Bad labels"), and prints both
 * reports and a table of the figures of both runs and their difference.
 *   npm run bench:detection     (DETECTION_FROM=2018-07-01 DETECTION_TO=2018-09-05
 *                                DETECTION_WEEKS=2018-08-08,2018-08-15,2018-08-22,2018-08-29 by default)
 *   LABEL_NOISE=0.1 npm run bench:detection
 */
import path from 'node:path'
import { labelNoiseOf } from '../src/app/replay/replay-events.js'
import { replay, type ReplayReport } from '../src/app/replay/replay.js'
import { formatFigure as f, noiseComparisonLines, reportLines } from '../src/app/replay/report.js'
import { DAY_MS, isoDay } from '../src/domain/detection-protocol.js'
import { OPERATOR_TOKEN, replayCleanAndNoisy } from './service.js'

const root = path.resolve(import.meta.dirname, '..')
const file = process.env.DETECTION_FILE ?? path.resolve(root, '../shared/bench/handbook-transactions.csv.gz')
const day = (iso: string) => Date.parse(iso + 'T00:00:00Z')
const weeks = (process.env.DETECTION_WEEKS ?? '2018-08-08,2018-08-15,2018-08-22,2018-08-29').split(',')
const KEY = 'sk_test_detectionbenchkey0000000'
const fromMs = day(process.env.DETECTION_FROM ?? '2018-07-01')
const toMs = day(process.env.DETECTION_TO ?? '2018-09-05')

const noise = labelNoiseOf(process.env)
const runs = await replayCleanAndNoisy('detection', KEY, noise, (url, labelNoise) => replay({
  file,
  url,
  key: KEY,
  operatorToken: OPERATOR_TOKEN,
  fromMs,
  toMs,
  window: { fromMs: day(process.env.DETECTION_WINDOW_FROM ?? isoDay(fromMs / DAY_MS)), toMs: day(process.env.DETECTION_WINDOW_TO ?? isoDay(toMs / DAY_MS)) },
  testWeeksMs: weeks.map(day),
  feedbackDelayMs: 7 * 86_400_000,
  batchSize: 500,
  settleDaily: true,
  labelNoise,
  progress: line => process.stderr.write(line + '\n')
}))

for (const { report, seconds, noise: labelNoise } of runs) {
  if (noise !== undefined) console.log(labelNoise === undefined ? '\n== labels clean' : `\n== label noise ${labelNoise.share} (seed ${labelNoise.seed})`)
  console.log(`\n${reportLines(report).join('\n')}\n(${Math.round(seconds)} s)`)
  const first = report.weeks[0]!
  const row = (name: string, auc: number, ap: number, cp: number) => console.log(`${name.padEnd(46)} ${f(auc)}  ${f(ap)}  ${f(cp)}`)
  console.log(`\n${'model'.padEnd(46)}    AUC      AP  CP@100`)
  row(`this service, test week ${weeks[0]}`, first.auc, first.ap, first.cardPrecision100)
  if (report.weeks.length > 1) row(`this service, mean of ${report.weeks.length} test weeks`, report.mean.auc, report.mean.ap, report.mean.cardPrecision100)
  row('handbook logistic regression (test week)', 0.871, 0.606, 0.291)
  row('handbook random forest (test week)', 0.867, 0.658, 0.287)
  row('handbook XGBoost (test week)', 0.862, 0.639, 0.273)
  row('handbook decision tree, depth 2 (test week)', 0.763, 0.496, 0.241)
  row('handbook tuned XGBoost (mean of 4 test weeks)', 0.869, 0.687, 0.303)
}

if (noise !== undefined && runs.length === 2) {
  const [clean, noisy] = runs.map(r => r.report) as [ReplayReport, ReplayReport]
  const figures = (name: string, c: { auc: number, ap: number, cardPrecision100: number }, n: typeof c) =>
    [{ name: `${name} AUC`, clean: c.auc, noisy: n.auc }, { name: `${name} AP`, clean: c.ap, noisy: n.ap }, { name: `${name} CP@100`, clean: c.cardPrecision100, noisy: n.cardPrecision100 }]
  console.log('\n' + noiseComparisonLines(noise, [
    ...clean.weeks.flatMap((w, i) => figures(`test week ${isoDay(w.startDay)}`, w, noisy.weeks[i]!)),
    ...(clean.weeks.length > 1 ? figures(`mean of ${clean.weeks.length} test weeks`, clean.mean, noisy.mean) : [])
  ]).join('\n'))
}
