/**
 * Detection quality on the Fraud Detection Handbook's simulated card transactions (../shared/bench): replays
 * DETECTION_FROM..DETECTION_TO through the real API (its own process, embedded transport, fresh state) in
 * event-time order, frauds fed back as case dispositions after 7 days, and prints AUC ROC, average precision
 * and card precision@100 per day of the test week (default 2018-08-08..08-14, the book's test week) next to the
 * book's published baselines.
 *   npm run bench:detection     (DETECTION_FROM=2018-07-01 DETECTION_TO=2018-08-15 by default)
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { replay } from '../src/app/replay/replay.js'
import { start } from './service.js'

const root = path.resolve(import.meta.dirname, '..')
const file = process.env.DETECTION_FILE ?? path.resolve(root, '../shared/bench/handbook-transactions.csv.gz')
const day = (name: string, fallback: string) => Date.parse((process.env[name] ?? fallback) + 'T00:00:00Z')
const KEY = 'sk_test_detectionbenchkey0000000'

const service = await start('src/app/main.ts', {
  DATA_DIR: mkdtempSync(path.join(tmpdir(), 'fds-detection-')), HOST: '127.0.0.1', PORT: '0', GRPC_PORT: '0', LOG_LEVEL: 'info',
  BOOTSTRAP_API_KEYS: KEY, RATE_LIMIT_PER_SECOND: '1000000', RATE_LIMIT_BURST: '1000000', MODEL_PUBLISH_INTERVAL_MS: '2000'
})
try {
  const startedAt = Date.now()
  const report = await replay({
    file,
    url: service.url,
    key: KEY,
    fromMs: day('DETECTION_FROM', '2018-07-01'),
    toMs: day('DETECTION_TO', '2018-08-15'),
    testFromMs: day('DETECTION_TEST_FROM', '2018-08-08'),
    testToMs: day('DETECTION_TO', '2018-08-15'),
    feedbackDelayMs: 7 * 86_400_000,
    batchSize: 500,
    progress: line => process.stderr.write(line + '\n')
  })
  const f = (x: number) => Number.isNaN(x) ? '  n/a' : x.toFixed(3)
  console.log(`\nreplayed ${report.replayed} transactions in ${Math.round((Date.now() - startedAt) / 1000)} s, ${report.feedback} frauds fed back after 7 days`)
  console.log('day         transactions  frauds  AUC    AP     CP@100')
  for (const d of report.days) console.log(`${d.day}  ${String(d.transactions).padStart(11)}  ${String(d.frauds).padStart(6)}  ${f(d.auc)}  ${f(d.ap)}  ${f(d.cardPrecision100)}`)
  console.log('\nmodel                                   AUC    AP     CP@100')
  console.log(`this service (test week)                ${f(report.test.auc)}  ${f(report.test.ap)}  ${f(report.test.cardPrecision100)}`)
  console.log('handbook logistic regression            0.871  0.606  0.291')
  console.log('handbook random forest                  0.867  0.658  0.287')
  console.log('handbook XGBoost                        0.862  0.639  0.273')
  console.log('handbook decision tree (depth 2)        0.763  0.496  0.241')
} finally {
  service.child.kill('SIGTERM')
}
