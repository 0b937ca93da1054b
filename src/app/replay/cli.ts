import { replay } from './replay.js'

/**
 * node dist/src/replay/cli.js --file data.csv[.gz] --url http://127.0.0.1:8080 --key sk_test_...
 *   [--from 2018-07-01] [--to 2018-08-15] [--test-from 2018-08-08] [--test-to 2018-08-15] [--feedback-delay-days 7] [--batch 500]
 * Replays a CSV of historical transactions (handbook format) through the API, feeds frauds back after the
 * delay, prints progress and then AUC ROC, average precision and card precision@100 per test day.
 */
async function main (): Promise<void> {
  const args = new Map<string, string>()
  const argv = process.argv.slice(2)
  for (let i = 0; i < argv.length; i += 2) args.set(argv[i]!.replace(/^--/, ''), argv[i + 1] ?? '')
  const need = (name: string) => {
    const v = args.get(name) ?? process.env[name.toUpperCase().replace(/-/g, '_')]
    if (v === undefined || v === '') throw new Error(`missing --${name}`)
    return v
  }
  const date = (name: string, fallback: string) => Date.parse((args.get(name) ?? fallback) + 'T00:00:00Z')
  const report = await replay({
    file: need('file'),
    url: need('url'),
    key: need('key'),
    fromMs: date('from', '2018-07-01'),
    toMs: date('to', '2018-08-15'),
    testFromMs: date('test-from', '2018-08-08'),
    testToMs: date('test-to', '2018-08-15'),
    feedbackDelayMs: Number(args.get('feedback-delay-days') ?? 7) * 86_400_000,
    batchSize: Number(args.get('batch') ?? 500),
    progress: line => process.stderr.write(line + '\n')
  })
  const f = (x: number) => Number.isNaN(x) ? '   n/a' : x.toFixed(3).padStart(6)
  console.log(`replayed ${report.replayed} transactions, ${report.feedback} frauds fed back as dispositions`)
  console.log('day          tx      frauds   AUC     AP    CP@100')
  for (const d of report.days) console.log(`${d.day}  ${String(d.transactions).padStart(7)}  ${String(d.frauds).padStart(6)}  ${f(d.auc)} ${f(d.ap)} ${f(d.cardPrecision100)}`)
  console.log(`test period  AUC ${f(report.test.auc)}  AP ${f(report.test.ap)}  CP@100 ${f(report.test.cardPrecision100)} (mean of days)`)
}

main().catch(err => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
