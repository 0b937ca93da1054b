/**
 * The grading protocol of the account-events benchmark (docs/detection-protocol-accounts.md), pure. Each test
 * week is graded per event-type group (login + account_update, payment, payout, signup, and all events): AUC ROC
 * and average precision over the group's events of the week, a group with no fraud (or no legitimate event) in
 * a week skipped for that week. Account precision@100 per day: the day's events grouped by account (max score,
 * max label), the accounts already known fraudulent before the day's midnight dropped, the 100 highest-scored
 * (ties by increasing account id) counted as hits / 100; averaged over the week's days. Weeks are then averaged,
 * each group over the weeks it was not skipped in.
 */
import { aucRoc, averagePrecision, type Scored } from './detection-metrics.js'
import { DAY_MS, dayNumber } from './detection-protocol.js'

export const EVENT_GROUPS = ['login+account_update', 'payment', 'payout', 'signup', 'all'] as const
export type EventGroup = typeof EVENT_GROUPS[number]

/** The protocol's test weeks: the last four weeks of the file (their first days). */
export const ACCOUNTS_TEST_WEEKS = ['2025-03-10', '2025-03-17', '2025-03-24', '2025-03-31'] as const
export const WEEK_DAYS = 7

/** The protocol's public baselines (4-week means on the public file): AUC / AP per group, account precision@100. */
export const ACCOUNTS_BASELINES: ReadonlyArray<{ name: string, groups: Record<EventGroup, [number, number]>, accountPrecision100: number }> = [
  { name: 'logistic regression', groups: { 'login+account_update': [0.954, 0.656], payment: [0.978, 0.774], payout: [0.949, 0.637], signup: [0.895, 0.736], all: [0.965, 0.701] }, accountPrecision100: 0.297 },
  { name: 'XGBoost', groups: { 'login+account_update': [0.967, 0.664], payment: [0.981, 0.746], payout: [0.978, 0.806], signup: [0.862, 0.650], all: [0.972, 0.698] }, accountPrecision100: 0.287 }
]

/** A scored event: its type, account, time (ms), the score and label, and whether the action was flag or reject. */
export interface AccountEventScored extends Scored { event: string, user: string, timeMs: number, flagged: boolean }

/** For each account with a fraud, when it first became known: the earliest EVENT_TIME + LABEL_DELAY_DAYS of its frauds (ms). */
export type KnownFraudAccounts = ReadonlyMap<string, number>

/** The groups an event type is graded in: its own (none for a type the protocol does not name) and `all`. */
export function groupsOf (event: string): EventGroup[] {
  switch (event) {
    case 'login': case 'account_update': return ['login+account_update', 'all']
    case 'payment': case 'payout': case 'signup': return [event, 'all']
    default: return ['all']
  }
}

/** AUC and AP of a group's events; `skipped` (and NaN figures) when its events hold no fraud or no legitimate event. */
export interface GroupFigures { events: number, frauds: number, skipped: boolean, auc: number, ap: number }

export function groupFigures (items: readonly AccountEventScored[]): Record<EventGroup, GroupFigures> {
  const byGroup = new Map<EventGroup, AccountEventScored[]>(EVENT_GROUPS.map(g => [g, []]))
  for (const it of items) for (const g of groupsOf(it.event)) byGroup.get(g)!.push(it)
  const out = {} as Record<EventGroup, GroupFigures>
  for (const [g, events] of byGroup) {
    const frauds = countFrauds(events)
    const skipped = frauds === 0 || frauds === events.length
    out[g] = { events: events.length, frauds, skipped, auc: skipped ? NaN : aucRoc(events), ap: skipped ? NaN : averagePrecision(events) }
  }
  return out
}

export interface AccountDayFigures { day: number, accounts: number, fraudAccounts: number, dropped: number, precision: number }

/**
 * Account precision@k of one day's events (`dayItems`, all of UTC day `day`): the accounts known fraudulent
 * before the day's midnight dropped, each remaining account with its max score and max label, the k highest
 * by score (ties by increasing account id, in code-unit order), hits / k (over k also when fewer accounts).
 */
export function accountPrecisionAtK (dayItems: readonly AccountEventScored[], known: KnownFraudAccounts, day: number, k = 100): AccountDayFigures {
  const midnight = day * DAY_MS
  const accounts = new Map<string, { score: number, label: number }>()
  const dropped = new Set<string>()
  for (const it of dayItems) {
    const knownAt = known.get(it.user)
    if (knownAt !== undefined && knownAt < midnight) { dropped.add(it.user); continue }
    const a = accounts.get(it.user)
    accounts.set(it.user, { score: Math.max(a?.score ?? -Infinity, it.score), label: Math.max(a?.label ?? 0, it.label) })
  }
  const ranked = [...accounts].sort((a, b) => b[1].score - a[1].score || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
  const hits = ranked.slice(0, k).reduce((n, [, a]) => n + a.label, 0)
  return { day, accounts: accounts.size, fraudAccounts: ranked.reduce((n, [, a]) => n + a.label, 0), dropped: dropped.size, precision: hits / k }
}

/** Figures of an arbitrary window of events: per group, and the share of legitimate events flagged or rejected. */
export interface WindowFigures {
  fromMs: number
  toMs: number
  events: number
  frauds: number
  legitimate: number
  legitimateFlagged: number
  /** legitimateFlagged / legitimate: what ordinary customers meet (NaN without legitimate events). */
  legitimateFlaggedShare: number
  groups: Record<EventGroup, GroupFigures>
}

/** The figures of the events with fromMs <= timeMs < toMs. */
export function windowFigures (scored: readonly AccountEventScored[], fromMs: number, toMs: number): WindowFigures {
  const items = scored.filter(s => s.timeMs >= fromMs && s.timeMs < toMs)
  const frauds = countFrauds(items)
  const legitimateFlagged = items.reduce((n, s) => n + (s.label === 0 && s.flagged ? 1 : 0), 0)
  const legitimate = items.length - frauds
  return { fromMs, toMs, events: items.length, frauds, legitimate, legitimateFlagged, legitimateFlaggedShare: legitimate === 0 ? NaN : legitimateFlagged / legitimate, groups: groupFigures(items) }
}

export interface AccountsWeekFigures extends WindowFigures { startDay: number, accountPrecision100: number, days: AccountDayFigures[] }

/** A test week starting on UTC day `startDay`: the window's figures and account precision@100 per day, averaged over its days. */
export function accountsWeekFigures (scored: readonly AccountEventScored[], known: KnownFraudAccounts, startDay: number, days = WEEK_DAYS): AccountsWeekFigures {
  const window = windowFigures(scored, startDay * DAY_MS, (startDay + days) * DAY_MS)
  const byDay = new Map<number, AccountEventScored[]>()
  for (const s of scored) {
    const day = dayNumber(s.timeMs)
    if (day >= startDay && day < startDay + days) (byDay.get(day) ?? byDay.set(day, []).get(day)!).push(s)
  }
  const perDay = Array.from({ length: days }, (_, d) => accountPrecisionAtK(byDay.get(startDay + d) ?? [], known, startDay + d, 100))
  return { ...window, startDay, accountPrecision100: mean(perDay.map(d => d.precision)), days: perDay }
}

export interface AccountsMeanFigures {
  /** Per group: the mean AUC and AP over the weeks the group was not skipped in, and how many those were. */
  groups: Record<EventGroup, { auc: number, ap: number, weeks: number }>
  accountPrecision100: number
}

export function accountsMeanFigures (weeks: readonly AccountsWeekFigures[]): AccountsMeanFigures {
  const groups = {} as AccountsMeanFigures['groups']
  for (const g of EVENT_GROUPS) {
    const graded = weeks.map(w => w.groups[g]).filter(f => !f.skipped)
    groups[g] = { auc: mean(graded.map(f => f.auc)), ap: mean(graded.map(f => f.ap)), weeks: graded.length }
  }
  return { groups, accountPrecision100: mean(weeks.map(w => w.accountPrecision100)) }
}

/** Records, over the events read, when each fraudulent account first became known. */
export function noteKnownFraud (known: Map<string, number>, user: string, knownMs: number): void {
  const at = known.get(user)
  if (at === undefined || knownMs < at) known.set(user, knownMs)
}

const countFrauds = (items: readonly Scored[]) => items.reduce((n, s) => n + s.label, 0)
const mean = (xs: readonly number[]) => xs.length === 0 ? NaN : xs.reduce((a, b) => a + b, 0) / xs.length
