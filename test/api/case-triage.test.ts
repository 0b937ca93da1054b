import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { MAX_NOTES, type Case } from '../../src/domain/cases/types.js'
import { caseKey, scanUnclosed } from '../../src/stores/cases.js'
import { unclosedKey } from '../../src/stores/case-indexes.js'
import { caseSummary, SUMMARY_MAX } from '../../src/services/case-summary.js'
import { indexStoredCases } from '../../src/stores/case-index-upgrade.js'
import { stateKey, TAG } from '../../src/stores/keys.js'
import { auth, createTenant, eventually, startTestApp } from '../support/app.js'

let app: App
let other: { id: string, keys: { test: string, live: string } }
const now = Date.parse('2026-11-27T12:00:00Z')
const call = (method: 'GET' | 'POST', url: string, payload?: object, key?: string) =>
  app.server.inject({ method, url, headers: auth(key), ...(payload === undefined ? {} : { payload }) })
const openCase = async (subjects: object, key?: string) => (await call('POST', '/v1/cases', { subjects }, key)).json()
const flagged = async (request: object) => {
  const d = (await call('POST', '/v1/score', { event: 'payment', amount: 20_000, ...request })).json()
  expect(d.action).toBe('flag')
  return await eventually(async () => (await call('GET', `/v1/cases?trace_id=${d.trace_id}`)).json().data[0] as { id: string } | undefined, 10000, 'the flag\'s case')
}

beforeAll(async () => {
  app = await startTestApp({}, { clock: () => now })
  other = await createTenant(app)
})
afterAll(async () => { await app.close() })

describe('the case carries the transaction an analyst triages', () => {
  it('amount, currency, event, merchant, channel, location, action and signals with their descriptions, in the list and on the case', async () => {
    const c = await flagged({ currency: 'eur', user_id: 'u-tx', merchant_id: 'm-electronics', channel: 'web', geo: { country: 'fr', city: 'Lyon', lat: 45.76, lon: 4.84 }, email: 'x@mailinator.com' })
    const one = (await call('GET', `/v1/cases/${c.id}`)).json()
    expect(one.transaction).toMatchObject({ event: 'payment', amount: 20_000, currency: 'EUR', merchant: 'm-electronics', channel: 'web', location: { country: 'FR', city: 'Lyon', lat: 45.76, lon: 4.84 }, action: 'flag', risk_level: expect.any(String) })
    expect(one.transaction.signals.length).toBeGreaterThan(0)
    for (const s of one.transaction.signals) expect(s.description.length, s.code).toBeGreaterThan(s.code.length)
    const listed = (await call('GET', '/v1/cases?user_id=u-tx')).json().data
    expect(listed.map((x: { id: string }) => x.id)).toEqual([c.id])
    expect(listed[0].transaction).toEqual(one.transaction)
    expect(listed[0].history).toBeUndefined()
  })

  it('a case opened on subjects only has no transaction; one opened by an analyst on a decision has it', async () => {
    expect((await openCase({ user_id: 'u-bare' })).transaction).toBeNull()
    const d = (await call('POST', '/v1/score', { event: 'login', user_id: 'u-analyst-open', geo: { country: 'DE' } })).json()
    const c = (await call('POST', '/v1/cases', { trace_id: d.trace_id })).json()
    expect(c.transaction).toMatchObject({ event: 'login', amount: null, merchant: null, location: { country: 'DE', city: null }, action: d.action })
  })
})

describe('notes', () => {
  it('are case records: listed with the case, in its history with the author, kept after it closes', async () => {
    const c = await openCase({ user_id: 'u-notes' })
    const noted = (await call('POST', `/v1/cases/${c.id}/notes`, { body: 'Called the customer: no answer.' })).json()
    expect(noted.notes).toEqual([{ id: expect.stringMatching(/^note_/), body: 'Called the customer: no answer.', author: expect.stringMatching(/^key_/), author_name: null, created: Math.floor(now / 1000) }])
    expect(noted.history.map((h: { type: string }) => h.type)).toEqual(['opened', 'noted'])
    expect(noted.status).toBe('open')
    await call('POST', `/v1/cases/${c.id}/disposition`, { outcome: 'safe', analyst: 'ana', reason: 'known customer' })
    const closed = (await call('POST', `/v1/cases/${c.id}/notes`, { body: 'Customer called back.' })).json()
    expect(closed).toMatchObject({ status: 'closed', outcome: 'safe' })
    expect(closed.notes.map((n: { body: string }) => n.body)).toEqual(['Called the customer: no answer.', 'Customer called back.'])
    // The audit log is materialized from its topic: both notes are there once it has caught up.
    await eventually(async () => (await call('GET', `/v1/audit?object_id=${c.id}`)).json().data.filter((e: { action: string }) => e.action === 'case.note').length === 2 || undefined, 10000, 'both notes audited')
  })

  it('refuses an empty, blank or oversized note, a note on another tenant\'s case, and more than the most a case keeps', async () => {
    const c = await openCase({ user_id: 'u-notes-bad' })
    expect((await call('POST', `/v1/cases/${c.id}/notes`, { body: '' })).json().error).toMatchObject({ code: 'parameter_invalid', param: 'body' })
    expect((await call('POST', `/v1/cases/${c.id}/notes`, { body: '   \n ' })).json().error).toMatchObject({ code: 'parameter_invalid', param: 'body' })
    expect((await call('POST', `/v1/cases/${c.id}/notes`, { body: 'x'.repeat(2001) })).json().error).toMatchObject({ param: 'body' })
    expect((await call('POST', `/v1/cases/${c.id}/notes`, {})).json().error).toMatchObject({ code: 'parameter_missing', param: 'body' })
    expect((await call('POST', `/v1/cases/${c.id}/notes`, { body: 'probe' }, other.keys.test)).statusCode).toBe(404)
    expect((await call('GET', `/v1/cases/${c.id}`)).json().notes).toEqual([])
    for (let i = 0; i < MAX_NOTES; i++) expect((await call('POST', `/v1/cases/${c.id}/notes`, { body: `n${i}` })).statusCode).toBe(200)
    expect((await call('POST', `/v1/cases/${c.id}/notes`, { body: 'one more' })).json().error).toMatchObject({ code: 'case_note_limit' })
  })
})

describe('bulk disposition', () => {
  it('disposes every case it can, each on its own and audited on its own, and says why the others were refused', async () => {
    const open = [await openCase({ user_id: 'u-bulk' }), await openCase({ user_id: 'u-bulk' }), await openCase({ user_id: 'u-bulk' })]
    await call('POST', `/v1/cases/${open[2].id}/disposition`, { outcome: 'safe', analyst: 'ana' })
    const foreign = await openCase({ user_id: 'u-bulk' }, other.keys.test)
    const res = await call('POST', '/v1/cases/dispositions', { case_ids: [open[0].id, open[1].id, open[2].id, foreign.id, 'case_missing'], outcome: 'fraud', analyst: 'ana', reason: 'same ring' })
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body).toMatchObject({ object: 'bulk_disposition', disposed: 2, failed: 3 })
    expect(body.data.map((r: { id: string, disposed: boolean }) => [r.id, r.disposed])).toEqual([[open[0].id, true], [open[1].id, true], [open[2].id, false], [foreign.id, false], ['case_missing', false]])
    expect(body.data[0].case).toMatchObject({ status: 'closed', outcome: 'fraud' })
    expect(body.data[2].error).toMatchObject({ code: 'invalid_transition' })
    expect(body.data[3].error).toMatchObject({ code: 'resource_missing' })
    // The other tenant's case is untouched.
    expect((await call('GET', `/v1/cases/${foreign.id}`, undefined, other.keys.test)).json()).toMatchObject({ status: 'open' })
    for (const c of open.slice(0, 2)) {
      await eventually(async () => (await call('GET', `/v1/audit?object_id=${c.id}`)).json().data.filter((e: { action: string, data: { outcome?: string } }) => e.action === 'case.disposition' && e.data.outcome === 'fraud').length === 1 || undefined, 10000, 'the disposition audited')
      expect((await call('GET', `/v1/cases/${c.id}`)).json().history.at(-1)).toMatchObject({ type: 'dispositioned', outcome: 'fraud', reason: 'same ring', analyst: 'ana' })
    }
  })

  it('takes at most 100 distinct case ids', async () => {
    const ids = Array.from({ length: 101 }, (_, i) => `case_${i}`)
    expect((await call('POST', '/v1/cases/dispositions', { case_ids: ids, outcome: 'safe', analyst: 'a' })).json().error).toMatchObject({ code: 'parameter_invalid', param: 'case_ids' })
    expect((await call('POST', '/v1/cases/dispositions', { case_ids: ['case_a', 'case_a'], outcome: 'safe', analyst: 'a' })).json().error).toMatchObject({ param: 'case_ids' })
    expect((await call('POST', '/v1/cases/dispositions', { case_ids: [], outcome: 'safe', analyst: 'a' })).json().error).toMatchObject({ param: 'case_ids' })
  })
})

describe('the queue at a glance', () => {
  it('counts open and in-review cases, ages the oldest, and counts an assignee\'s, per tenant and mode', async () => {
    const before = (await call('GET', '/v1/cases/summary?assignee=quinn@example.com')).json()
    const a = await openCase({ user_id: 'u-sum-1' })
    await openCase({ user_id: 'u-sum-2' })
    await call('POST', `/v1/cases/${a.id}/assign`, { assignee: 'quinn@example.com' })
    const after = (await call('GET', '/v1/cases/summary?assignee=quinn@example.com')).json()
    expect(after).toMatchObject({ object: 'case_summary', open: before.open + 1, in_review: before.in_review + 1, assigned_in_review: before.assigned_in_review + 1 })
    expect(after.oldest_unclosed_created).toBeLessThanOrEqual(Math.floor(now / 1000))
    expect(after.oldest_unclosed_age_seconds).toBe(Math.floor(now / 1000) - after.oldest_unclosed_created)
    expect((await call('GET', '/v1/cases/summary')).json().assigned_in_review).toBeUndefined()
    const theirs = (await call('GET', '/v1/cases/summary', undefined, other.keys.live)).json()
    expect(after.assignees).toContainEqual({ assignee: 'quinn@example.com', in_review: before.assigned_in_review + 1 })
    expect(theirs).toEqual({ object: 'case_summary', capped: false, open: 0, in_review: 0, oldest_unclosed_created: null, oldest_unclosed_age_seconds: null, assignees: [] })
  })
})

describe('the case indexes: the queue (open and in-review cases) and the subjects', () => {
  it('follow each case (the queue until it closes), and are built for cases stored before them', async () => {
    const scope = { tenant: app.identity.defaultTenant, mode: 'test' as const }
    const indexed = async () => { const ids: string[] = []; for await (const e of scanUnclosed(app.state, scope)) ids.push(e.id); return ids }
    const c = await openCase({ user_id: 'u-index' })
    expect(await indexed()).toContain(c.id)
    await call('POST', `/v1/cases/${c.id}/assign`, { assignee: 'ana' })
    expect((await call('GET', '/v1/cases?status=in_review&assignee=ana')).json().data.map((x: { id: string }) => x.id)).toEqual([c.id])
    await call('POST', `/v1/cases/${c.id}/disposition`, { outcome: 'fraud', analyst: 'ana' })
    expect(await indexed()).not.toContain(c.id)
    expect((await call('GET', '/v1/cases?status=in_review&assignee=ana')).json().data).toEqual([])

    // A case stored by an older build (no index entry) is indexed when the store opens.
    const old: Case = { ...(JSON.parse((await app.state.get(caseKey(scope, c.id)))!.toString()) as Case), id: 'case_stored_before', status: 'open', outcome: null, assignee: null }
    await app.state.committer.commit([{ type: 'put', key: caseKey(scope, old.id), value: Buffer.from(JSON.stringify(old)) }, { type: 'del', key: stateKey(TAG.meta, 'case_indexes_1') }])
    expect(await indexed()).not.toContain(old.id)
    expect(await indexStoredCases(app.state)).toBeGreaterThan(0)
    expect(await indexed()).toContain(old.id)
    expect(await indexed()).not.toContain(c.id)
    expect(await indexStoredCases(app.state)).toBe(0)
    expect((await call('GET', '/v1/cases?status=open&limit=100&user_id=u-index')).json().data.map((x: { id: string }) => x.id)).toEqual([old.id])
    // The subject index: every case of the user, closed ones too, in id order; never another tenant's of the same user.
    await openCase({ user_id: 'u-index' }, other.keys.test)
    expect((await call('GET', '/v1/cases?limit=100&user_id=u-index')).json().data.map((x: { id: string }) => x.id)).toEqual([c.id, old.id].sort())
    const paged = (await call('GET', `/v1/cases?limit=1&user_id=u-index&starting_after=${[c.id, old.id].sort()[0]}`)).json()
    expect(paged).toMatchObject({ has_more: false, data: [{ id: [c.id, old.id].sort()[1] }] })
  })
})

describe('the summary of a queue a tenant has flooded', () => {
  it('counts at most SUMMARY_MAX open cases and says so', async () => {
    const scope = { tenant: 'ten_flooded', mode: 'test' as const }
    const entry = (i: number) => ({ type: 'put' as const, key: unclosedKey(scope, `case_f${String(i).padStart(6, '0')}`), value: Buffer.from(JSON.stringify({ id: `case_f${i}`, status: 'open', assignee: null, created_ms: now - i })) })
    await app.state.committer.commit(Array.from({ length: SUMMARY_MAX + 5 }, (_, i) => entry(i)))
    expect(await caseSummary(app.state, scope, now)).toMatchObject({ capped: true, open: SUMMARY_MAX, in_review: 0 })
  })
})
