/**
 * One model over all account events, or one per event group (issue 35), measured offline under the protocol's
 * own baseline training (docs/detection-protocol-accounts.md, "Public baselines"; src/domain/detection-baselines-accounts.ts):
 * at the first midnight of each test week, the service's gradient-boosted trees (gbdt.ts, DEFAULT_TRAINING, the
 * same TREE_INPUTS computed from each decision's recorded features) are trained on the events from day 7 of the
 * file up to that midnight, labelled with the frauds known by then, (a) once over all events (event_kind is one
 * of the inputs), (b) once per event group (login + account_update, payment, payout, signup); each test week is
 * graded with the protocol's code (detection-protocol-accounts.ts) and the four-week means are printed beside
 * the service's own online scores and the protocol's two baselines. Reads the export bench:accounts writes with
 * ACCOUNTS_EXPORT (src/app/replay/accounts-export.ts); day 0 is the day of its first event.
 *   ACCOUNTS_EXPORT=/tmp/accounts.jsonl.gz npm run bench:accounts      (the whole file once)
 *   ACCOUNTS_EXPORT=/tmp/accounts.jsonl.gz npm run bench:model-groups
 * ACCOUNTS_WEEKS: the test weeks graded (the protocol's four; only weeks the export holds whole);
 * MODEL_NEGATIVE_SAMPLE_PERCENT (10): the share of the rows labelled 0 trained on, weighted back, as the
 * service's trainer samples.
 */
import { readAccountsExport } from '../src/app/replay/accounts-export.js'
import { formatFigure as f } from '../src/app/replay/report.js'
import { BASELINE_FIRST_TRAINING_DAY, modelGroupOf, systematicSample, trainingRows, type TrainingEvent, type TrainingRow } from '../src/domain/detection-baselines-accounts.js'
import {
  ACCOUNTS_BASELINES, ACCOUNTS_TEST_WEEKS, accountsMeanFigures, accountsWeekFigures, EVENT_GROUPS, noteKnownFraud, WEEK_DAYS,
  type AccountEventScored, type AccountsWeekFigures, type EventGroup
} from '../src/domain/detection-protocol-accounts.js'
import { DAY_MS, dayNumber, isoDay } from '../src/domain/detection-protocol.js'
import { DEFAULT_TRAINING, predictLogit, train, type Forest } from '../src/domain/model/gbdt.js'
import { TREE_INPUTS, treeValues } from '../src/domain/model/inputs.js'

const file = process.env.ACCOUNTS_EXPORT
if (file === undefined || file === '') throw new Error('ACCOUNTS_EXPORT: the file bench:accounts wrote with ACCOUNTS_EXPORT')
const negativeShare = Number(process.env.MODEL_NEGATIVE_SAMPLE_PERCENT ?? 10) / 100
/** Another training window than the protocol's (all from day 7 up to the midnight): its days, and how many days before the midnight it ends. */
const windowDays = process.env.OFFLINE_WINDOW_DAYS === undefined ? undefined : Number(process.env.OFFLINE_WINDOW_DAYS)
const lagDays = process.env.OFFLINE_LAG_DAYS === undefined ? undefined : Number(process.env.OFFLINE_LAG_DAYS)
const count = (n: number) => n.toLocaleString('en-US')

interface Row extends TrainingEvent { traceId: string, user: string, fraud: 0 | 1, serviceScore: number, x: Float64Array }
const rows: Row[] = []
for await (const e of readAccountsExport(file)) {
  rows.push({ traceId: e.trace_id, timeMs: e.time_ms, event: e.event, knownMs: e.known_ms ?? undefined, user: e.user_id, fraud: e.fraud, serviceScore: e.score, x: treeValues(e.features) })
}
if (rows.length === 0) throw new Error(`${file}: no events`)
// event-time order, as replayed (trace ids sort by creation)
rows.sort((a, b) => a.timeMs - b.timeMs || (a.traceId < b.traceId ? -1 : a.traceId > b.traceId ? 1 : 0))
const firstDay = dayNumber(rows[0]!.timeMs)
const lastDay = dayNumber(rows[rows.length - 1]!.timeMs)
const known = new Map<string, number>()
for (const r of rows) if (r.knownMs !== undefined) noteKnownFraud(known, r.user, r.knownMs)

const weeks = (process.env.ACCOUNTS_WEEKS ?? ACCOUNTS_TEST_WEEKS.join(',')).split(',').map(d => dayNumber(Date.parse(d + 'T00:00:00Z')))
const graded = weeks.filter(w => w > firstDay + BASELINE_FIRST_TRAINING_DAY && w + WEEK_DAYS - 1 <= lastDay)

console.log(`${file}: ${count(rows.length)} events ${isoDay(firstDay)}..${isoDay(lastDay)}, ${count(rows.filter(r => r.fraud === 1).length)} frauds`)
console.log(`At each test week's first midnight, trees are trained (DEFAULT_TRAINING: ${DEFAULT_TRAINING.trees} trees of depth ${DEFAULT_TRAINING.depth}, ` +
  `${TREE_INPUTS.length} tree inputs) on the events from day ${BASELINE_FIRST_TRAINING_DAY} (${isoDay(firstDay + BASELINE_FIRST_TRAINING_DAY)}) up to it, ` +
  `labelled 1 when their fraud is known before it. Sampled: of the rows labelled 0 (legitimate, or a fraud not known yet), ${Math.round(100 * negativeShare)} % ` +
  `(every ${Math.round(1 / negativeShare)}th event in event-time order, the same rows for both ways), weighted ${+(1 / negativeShare).toFixed(2)}; every known fraud is kept.`)
if (windowDays !== undefined || lagDays !== undefined) console.log(`Not the protocol's window: ${windowDays ?? 'all the'} days ending ${lagDays ?? 0} days before each midnight (OFFLINE_WINDOW_DAYS, OFFLINE_LAG_DAYS).`)
const skipped = weeks.filter(w => !graded.includes(w))
if (skipped.length > 0) console.log(`(test weeks not held whole by the export or without a training day before them, not graded: ${skipped.map(isoDay).join(', ')})`)

const keepNegative = systematicSample(negativeShare)
/** Trees trained on the selected rows, and the line that says on what and how long it took (undefined without rows). */
function trained (selected: readonly TrainingRow[]): { forest?: Forest, line: string } {
  const frauds = selected.reduce((n, r) => n + r.label, 0)
  if (selected.length === 0) return { line: 'no rows' }
  const started = Date.now()
  const forest = train({
    columns: TREE_INPUTS.map((_, i) => Float64Array.from(selected, r => rows[r.index]!.x[i]!)),
    labels: Uint8Array.from(selected, r => r.label),
    weights: Float64Array.from(selected, r => r.weight)
  }, DEFAULT_TRAINING)
  return { forest, line: `${count(selected.length)} rows (${count(frauds)} frauds) ${((Date.now() - started) / 1000).toFixed(1)} s` }
}

type Figures = { groups: Record<EventGroup, { auc: number, ap: number }>, accountPrecision100: number }
const methods = ['service (online)', 'one model', 'per group'] as const
const byMethod: Record<typeof methods[number], AccountsWeekFigures[]> = { 'service (online)': [], 'one model': [], 'per group': [] }

for (const week of graded) {
  const midnightMs = week * DAY_MS
  const selection = { fileStartMs: firstDay * DAY_MS, midnightMs, keepNegative, negativeWeight: 1 / negativeShare, windowDays, lagDays }
  const test = rows.filter(r => r.timeMs >= midnightMs && r.timeMs < midnightMs + WEEK_DAYS * DAY_MS)
  const one = trained(trainingRows(rows, selection))
  const perGroup = new Map([...new Set(test.map(r => modelGroupOf(r.event)))].map(g => [g, trained(trainingRows(rows, { ...selection, group: g }))]))
  const logit = (forest: Forest | undefined, r: Row) => forest === undefined ? 0 : predictLogit(forest, r.x)
  const gradedBy = (score: (r: Row) => number) =>
    accountsWeekFigures(test.map((r): AccountEventScored => ({ event: r.event, user: r.user, timeMs: r.timeMs, score: score(r), label: r.fraud, flagged: false })), known, week)
  const figures = [gradedBy(r => r.serviceScore), gradedBy(r => logit(one.forest, r)), gradedBy(r => logit(perGroup.get(modelGroupOf(r.event))!.forest, r))]
  methods.forEach((m, i) => byMethod[m].push(figures[i]!))
  console.log(`\ntest week ${isoDay(week)}: ${count(test.length)} events, ${count(test.filter(r => r.fraud === 1).length)} frauds; trained one model on ${one.line}; per group: ` +
    [...perGroup].map(([g, t]) => `${g} ${t.line}`).join(', '))
  console.log(tableLines(methods.map((name, i) => ({ name, ...figures[i]! }))).join('\n'))
}

if (graded.length > 0) {
  const means = methods.map(name => {
    const m = accountsMeanFigures(byMethod[name])
    return { name, groups: m.groups, accountPrecision100: m.accountPrecision100 }
  })
  const baselines = ACCOUNTS_BASELINES.map(b => ({
    name: b.name, accountPrecision100: b.accountPrecision100,
    groups: Object.fromEntries(EVENT_GROUPS.map(g => [g, { auc: b.groups[g][0], ap: b.groups[g][1] }])) as Figures['groups']
  }))
  console.log(`\nmean of ${graded.length} test week${graded.length === 1 ? '' : 's'} (the baselines: the protocol's four-week means on the public file)`)
  console.log(tableLines([...means, ...baselines]).join('\n'))
}

/** A table of AUC and AP per group and account precision@100, a column pair per named set of figures. */
function tableLines (columns: ReadonlyArray<Figures & { name: string }>): string[] {
  const line = (label: string, cell: (c: typeof columns[number]) => string) => label.padEnd(22) + columns.map(c => cell(c).padStart(21)).join('')
  return [
    line('', c => c.name),
    line('group', () => 'AUC      AP'),
    ...EVENT_GROUPS.map(g => line(g, c => `${f(c.groups[g].auc)}  ${f(c.groups[g].ap)}`)),
    line('account precision@100', c => f(c.accountPrecision100))
  ]
}
