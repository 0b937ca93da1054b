import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { prefixRange, stateKey, TAG } from '../../src/stores/keys.js'
import { scan, type WriteOp } from '../../src/stores/rocks.js'
import { getTransaction, putTransactionOp } from '../../src/stores/transactions.js'
import { indexStoredTransactions } from '../../src/stores/transaction-index-upgrade.js'
import { newId } from '../../src/domain/ids.js'
import { auth, createTenant, LIVE_KEY, startTestApp } from '../support/app.js'

let app: App
const call = (url: string, key?: string) => app.server.inject({ method: 'GET', url, headers: auth(key) })
const score = async (body: object, key?: string) => (await app.server.inject({ method: 'POST', url: '/v1/score', headers: auth(key), payload: body })).json() as { trace_id: string }
const ids = async (url: string, key?: string) => (await call(url, key)).json().data.map((t: { id: string }) => t.id) as string[]
const newestFirst = (traces: string[]) => [...traces].sort().reverse()

beforeAll(async () => { app = await startTestApp() })
afterAll(async () => { await app.close() })

describe('GET /v1/transactions by subject (the subject index)', () => {
  it('pages through every decision of a subject: has_more, then starting_after, to the last', async () => {
    const traces: string[] = []
    for (let i = 0; i < 25; i++) {
      traces.push((await score({ event: 'login', user_id: 'u-paged', device_id: `d-paged-${i % 2}` })).trace_id)
      await score({ event: 'login', user_id: `u-other-${i}` })
    }
    const seen: string[] = []
    const more: boolean[] = []
    let after: string | undefined
    do {
      const page = (await call(`/v1/transactions?user_id=u-paged&limit=10${after === undefined ? '' : `&starting_after=${after}`}`)).json() as { has_more: boolean, data: Array<{ id: string }> }
      seen.push(...page.data.map(t => t.id))
      more.push(page.has_more)
      after = page.has_more ? page.data[page.data.length - 1]!.id : undefined
    } while (after !== undefined)
    expect(more).toEqual([true, true, false])
    expect(seen).toEqual(newestFirst(traces))
    // Two subjects: the first one's decisions, those of the second kept.
    expect(await ids('/v1/transactions?user_id=u-paged&device_id=d-paged-1&limit=100')).toEqual(newestFirst(traces.filter((_, i) => i % 2 === 1)))
    expect((await call('/v1/transactions?user_id=u-paged&limit=5')).json()).toMatchObject({ object: 'list', url: '/v1/transactions', has_more: true })
  })

  it('finds decisions by IP, an IPv6 address however written, in the caller\'s tenant and mode only', async () => {
    const v4 = await score({ event: 'login', user_id: 'u-ip-1', ip: '203.0.113.77' })
    const v6 = await score({ event: 'login', user_id: 'u-ip-2', ip: '2001:db8::7' })
    const other = await createTenant(app, 'Same IPs elsewhere')
    await score({ event: 'login', user_id: 'u-ip-1', ip: '203.0.113.77' }, other.keys.test)
    await score({ event: 'login', user_id: 'u-ip-1', ip: '203.0.113.77' }, LIVE_KEY)
    expect(await ids('/v1/transactions?ip=203.0.113.77')).toEqual([v4.trace_id])
    expect(await ids(`/v1/transactions?ip=${encodeURIComponent('2001:DB8:0:0::7')}`)).toEqual([v6.trace_id])
    expect(await ids(`/v1/transactions?ip=${encodeURIComponent('2001:db8::7')}&user_id=u-ip-2`)).toEqual([v6.trace_id])
    expect(await ids('/v1/transactions?ip=203.0.113.78')).toEqual([])
    // The other tenant's and the live mode's decisions from the same address are theirs alone.
    const theirs = await ids('/v1/transactions?ip=203.0.113.77', other.keys.test)
    expect(theirs).toHaveLength(1)
    expect(theirs).not.toContain(v4.trace_id)
    expect(await ids('/v1/transactions?ip=203.0.113.77', LIVE_KEY)).toHaveLength(1)
    expect(await ids(`/v1/transactions?ip=203.0.113.77&starting_after=${theirs[0]!}`)).toEqual(theirs[0]! > v4.trace_id ? [v4.trace_id] : [])
  })

  it('refuses an IP that is not one, and subject values no decision could have, with the error naming the parameter', async () => {
    for (const bad of ['garbage', '1.2.3', '999.1.1.1', '2001:db8:::1']) {
      const res = await call(`/v1/transactions?ip=${encodeURIComponent(bad)}`)
      expect(res.statusCode).toBe(400)
      expect(res.json().error).toMatchObject({ type: 'invalid_request_error', code: 'parameter_invalid', param: 'ip', message: "Invalid value for 'ip': must be an IPv4 or IPv6 address." })
    }
    expect((await call(`/v1/transactions?email=${'a'.repeat(321)}`)).json().error).toMatchObject({ code: 'parameter_invalid', param: 'email' })
    expect((await call('/v1/transactions?card=')).json().error).toMatchObject({ code: 'parameter_invalid', param: 'card' })
  })

  it('indexes, when the store opens, the decisions stored before the index existed (Protobuf and JSON records)', async () => {
    const kept = await score({ event: 'login', user_id: 'u-before-index', ip: '192.0.2.44', email: 'before@example.com' })
    // A record of the first format (JSON), as stored before decisions were Protobuf.
    const record = (await getTransaction(app.state, { tenant: app.identity.defaultTenant, mode: 'test' }, kept.trace_id))!
    const old = { ...record, trace_id: newId('trc', record.created_ms - 1000) }
    await app.state.committer.commit([putTransactionOp(old, Buffer.from(JSON.stringify(old)))])
    // The store as it was before: no index entries, the upgrade not yet run.
    const deletes: WriteOp[] = [{ type: 'del', key: stateKey(TAG.meta, 'transaction_subject_index_2') }]
    for await (const [key] of scan(app.state.db, ...prefixRange(TAG.transactionBySubject))) deletes.push({ type: 'del', key })
    await app.state.committer.commit(deletes)
    expect(await ids('/v1/transactions?user_id=u-before-index')).toEqual([])
    expect(await indexStoredTransactions(app.state)).toBeGreaterThan(50)
    expect(await ids('/v1/transactions?user_id=u-before-index')).toEqual([kept.trace_id, old.trace_id])
    expect(await ids('/v1/transactions?ip=192.0.2.44')).toEqual([kept.trace_id, old.trace_id])
    expect(await ids('/v1/transactions?email=before@example.com&limit=1')).toEqual([kept.trace_id])
    expect(await ids('/v1/transactions?email=Before@EXAMPLE.com&limit=1')).toEqual([kept.trace_id])
    expect(await ids('/v1/transactions?user_id=u-paged&limit=100')).toHaveLength(25)
    // Done once: opened again, the store reads nothing.
    expect(await indexStoredTransactions(app.state)).toBe(0)
  })
})
