import { replay } from './replay.js'
import { reportLines } from './report.js'

/**
 * node dist/src/app/replay/cli.js --file data.csv[.gz] --url http://127.0.0.1:8080 --key sk_test_... [--operator-token <METRICS_TOKEN>]
 *   [--from 2018-07-01] [--to 2018-08-15] [--test-weeks 2018-08-08[,2018-08-15...]] [--feedback-delay-days 7] [--batch 500]
 * Replays a CSV of historical transactions (handbook format) through the API of a service of its own started
 * with RECORDED_TIME=event_time (else the decisions are late and nothing matures), feeds frauds back after the
 * delay, prints progress and then, for each test week, AUC ROC, average precision and card precision@100 with
 * the book's protocol (cards known compromised removed), per day and for the week.
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
    operatorToken: args.get('operator-token') ?? process.env.METRICS_TOKEN,
    fromMs: date('from', '2018-07-01'),
    toMs: date('to', '2018-08-15'),
    testWeeksMs: (args.get('test-weeks') ?? '2018-08-08').split(',').map(d => Date.parse(d + 'T00:00:00Z')),
    feedbackDelayMs: Number(args.get('feedback-delay-days') ?? 7) * 86_400_000,
    batchSize: Number(args.get('batch') ?? 500),
    progress: line => process.stderr.write(line + '\n')
  })
  console.log(reportLines(report).join('\n'))
}

main().catch(err => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
