import { describe, expect, it } from 'vitest'
import { DAY_MS } from '../../src/domain/detection-protocol.js'
import {
  accountPrecisionAtK, accountsMeanFigures, accountsWeekFigures, groupFigures, groupsOf, windowFigures, type AccountEventScored
} from '../../src/domain/detection-protocol-accounts.js'

/** An event of `user` on UTC day `day` (hour `hour`), scored `score`, fraud when `label` is 1. */
const ev = (day: number, user: string, event: string, score: number, label: 0 | 1, flagged = false, hour = 12): AccountEventScored =>
  ({ timeMs: day * DAY_MS + hour * 3_600_000, user, event, score, label, flagged })

describe('the account-events protocol: event groups', () => {
  it('grades login with account_update, the others by themselves, every event in all', () => {
    expect(groupsOf('login')).toEqual(['login+account_update', 'all'])
    expect(groupsOf('account_update')).toEqual(['login+account_update', 'all'])
    expect(groupsOf('payout')).toEqual(['payout', 'all'])
    expect(groupsOf('refund')).toEqual(['all'])
  })

  it('AUC and AP per group with tied scores, a group without fraud or without events skipped', () => {
    const items = [
      ev(10, 'a', 'login', 0.9, 1), ev(10, 'b', 'login', 0.5, 0), ev(10, 'c', 'account_update', 0.5, 1), ev(10, 'd', 'login', 0.1, 0),
      ev(10, 'e', 'payment', 0.8, 0), ev(10, 'f', 'payment', 0.8, 1), ev(10, 'g', 'payment', 0.3, 0),
      ev(10, 'h', 'payout', 0.7, 0)
    ]
    const g = groupFigures(items)
    // login + account_update: frauds 0.9 and 0.5 against 0.5 and 0.1: pairs 1 + 1 + 1/2 (the tie) + 1 of 4
    expect(g['login+account_update']).toMatchObject({ events: 4, frauds: 2, skipped: false })
    expect(g['login+account_update'].auc).toBeCloseTo(3.5 / 4)
    // ranked 0.9 (fraud), then the tie {0.5 legit, 0.5 fraud} as one threshold: (1/2)(1/1) + (1/2)(2/3)
    expect(g['login+account_update'].ap).toBeCloseTo(5 / 6)
    // payment: the fraud ties a legitimate 0.8 and beats 0.3; AP: one threshold at 0.8 holding 1 of 2
    expect(g.payment.auc).toBeCloseTo(0.75)
    expect(g.payment.ap).toBeCloseTo(0.5)
    expect(g.payout).toMatchObject({ events: 1, frauds: 0, skipped: true })
    expect(g.payout.ap).toBeNaN()
    expect(g.signup).toMatchObject({ events: 0, frauds: 0, skipped: true })
    // all: frauds 0.9, 0.8, 0.5 against 0.8, 0.7, 0.5, 0.3, 0.1: 5 + 4.5 + 2.5 of 15 pairs
    expect(g.all.auc).toBeCloseTo(12 / 15)
    // thresholds 0.9 (1 of 1), 0.8 (2 of 3), 0.7 (no gain), 0.5 (3 of 6): (1/3)(1) + (1/3)(2/3) + (1/3)(1/2)
    expect(g.all.ap).toBeCloseTo(13 / 18)
  })
})

describe('the account-events protocol: account precision@100', () => {
  // Day 10. u_b: max score 0.7, max label 1 (its fraud scored 0.2); u_a ties it at 0.7, legitimate;
  // u_c (0.9) became known before midnight and u_e (0.95) half a day before: both dropped;
  // u_d became known exactly at midnight: not before it, kept.
  const day = [
    ev(10, 'u_b', 'login', 0.7, 0), ev(10, 'u_b', 'payout', 0.2, 1), ev(10, 'u_a', 'login', 0.7, 0),
    ev(10, 'u_c', 'login', 0.9, 0), ev(10, 'u_d', 'payment', 0.6, 1), ev(10, 'u_e', 'login', 0.95, 1)
  ]
  const known = new Map([['u_c', 10 * DAY_MS - 1], ['u_d', 10 * DAY_MS], ['u_e', 9.5 * DAY_MS]])

  it('groups by account with max score and max label, drops the accounts known before midnight, counts hits over 100', () => {
    expect(accountPrecisionAtK(day, known, 10)).toEqual({ day: 10, accounts: 3, fraudAccounts: 2, dropped: 2, precision: 0.02 })
  })

  it('breaks ties by increasing account id, not by arrival', () => {
    // u_b arrived first and is fraudulent, but u_a < u_b takes the single place
    expect(accountPrecisionAtK(day, known, 10, 1).precision).toBe(0)
    expect(accountPrecisionAtK(day, known, 10, 2).precision).toBe(0.5)
    // code-unit order: u_10 before u_9
    expect(accountPrecisionAtK([ev(3, 'u_9', 'login', 0.5, 1), ev(3, 'u_10', 'login', 0.5, 0)], new Map(), 3, 1).precision).toBe(0)
  })

  it('without the drop the known fraudster would take the first place', () => {
    expect(accountPrecisionAtK(day, new Map(), 10, 1).precision).toBe(1)
  })
})

describe('the account-events protocol: weeks and windows', () => {
  // Two 2-day "weeks" (days 10-11 and 12-13), an event before and after them. u1 became known at day 10.5.
  const scored = [
    ev(9, 'u8', 'login', 0.1, 0),
    ev(10, 'u1', 'login', 0.9, 1), ev(10, 'u2', 'login', 0.5, 0, true), ev(10, 'u3', 'payment', 0.8, 0, true), ev(10, 'u4', 'payment', 0.6, 1, true),
    ev(11, 'u1', 'login', 0.99, 1), ev(11, 'u5', 'account_update', 0.5, 1), ev(11, 'u2', 'login', 0.1, 0),
    ev(12, 'u9', 'login', 0.9, 1), ev(12, 'u10', 'login', 0.2, 0), ev(12, 'u11', 'payment', 0.4, 0),
    ev(14, 'u12', 'payout', 0.9, 1)
  ]
  const known = new Map([['u1', 10.5 * DAY_MS]])

  it('grades a week: its events only, precision@100 per day (known accounts dropped day by day) averaged', () => {
    const week = accountsWeekFigures(scored, known, 10, 2)
    expect(week).toMatchObject({ startDay: 10, events: 7, frauds: 4, legitimate: 3 })
    // day 10: u1, u3, u4, u2 -> 2 frauds; day 11: u1 dropped (known 10.5), u5 and u2 -> 1
    expect(week.days.map(d => [d.day, d.dropped, d.precision])).toEqual([[10, 0, 0.02], [11, 1, 0.01]])
    expect(week.accountPrecision100).toBeCloseTo(0.015)
    // login + account_update: frauds 0.99, 0.9, 0.5 against 0.5, 0.1: 2 + 2 + 1.5 of 6 pairs; AP 1/3 + 1/3 + (1/3)(3/4)
    expect(week.groups['login+account_update'].auc).toBeCloseTo(5.5 / 6)
    expect(week.groups['login+account_update'].ap).toBeCloseTo(11 / 12)
    // payment: the fraud 0.6 below the legitimate 0.8
    expect([week.groups.payment.auc, week.groups.payment.ap]).toEqual([0, 0.5])
  })

  it('averages each group over the weeks it was graded in, precision@100 over every week', () => {
    const weeks = [accountsWeekFigures(scored, known, 10, 2), accountsWeekFigures(scored, known, 12, 2)]
    // the second week: u9 (fraud) above u10; no payment fraud: payment skipped; day 13 has no events: 0
    expect(weeks[1]!.groups.payment.skipped).toBe(true)
    expect(weeks[1]!.days.map(d => d.precision)).toEqual([0.01, 0])
    const mean = accountsMeanFigures(weeks)
    expect(mean.groups['login+account_update'].weeks).toBe(2)
    expect(mean.groups['login+account_update'].auc).toBeCloseTo((5.5 / 6 + 1) / 2)
    expect(mean.groups['login+account_update'].ap).toBeCloseTo((11 / 12 + 1) / 2)
    expect(mean.groups.payment).toEqual({ auc: 0, ap: 0.5, weeks: 1 })
    expect(mean.groups.payout.weeks).toBe(0)
    expect(mean.groups.payout.ap).toBeNaN()
    expect(mean.accountPrecision100).toBeCloseTo((0.015 + 0.005) / 2)
  })

  it('grades an arbitrary window: the share of legitimate events flagged or rejected, the all-events AUC', () => {
    const w = windowFigures(scored, 10 * DAY_MS, 12 * DAY_MS)
    // legitimate: u2 (flagged), u3 (flagged), u2 on day 11; u4 flagged is a fraud and does not count
    expect(w).toMatchObject({ events: 7, frauds: 4, legitimate: 3, legitimateFlagged: 2 })
    expect(w.legitimateFlaggedShare).toBeCloseTo(2 / 3)
    // frauds 0.99, 0.9, 0.6, 0.5 against 0.8, 0.5, 0.1: pairs 3 + 3 + 2 + 1.5 (a tie with 0.5) of 12
    expect(w.groups.all.auc).toBeCloseTo(9.5 / 12)
    expect(windowFigures(scored, 9 * DAY_MS, 15 * DAY_MS).events).toBe(scored.length)
  })
})
