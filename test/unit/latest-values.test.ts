import { afterEach, describe, expect, it } from 'vitest'
import { openStateDb, type StateDb } from '../../src/stores/state-db.js'
import { writeBatchSync } from '../../src/stores/rocks.js'
import { decodeFirstSeen, deviceSeenKey, markDeviceSeenOp } from '../../src/stores/device-history.js'
import { lastLocationKey, lastLocationOps, parseLastLocation } from '../../src/stores/last-location.js'
import { stateKey, TAG } from '../../src/stores/keys.js'
import { tempDir } from '../support/app.js'

const scope = { tenant: 'ten_a', mode: 'test' as const }
const request = { event: 'payment', user_id: 'u1', device_id: 'd1' }
const seenKey = deviceSeenKey(scope, request)!
const locationKey = lastLocationKey(scope, request)!
const at = (lat: number, lon: number) => ({ ...request, geo: { lat, lon } })
const T = Date.parse('2026-11-20T10:00:00Z')

let state: StateDb | undefined
afterEach(async () => { await state?.close(); state = undefined })

const firstSeen = async (s: StateDb) => decodeFirstSeen((await s.get(seenKey))!)
const position = async (s: StateDb) => parseLastLocation(await s.get(locationKey))

describe('first sights and last positions (merged: the earliest and the latest stay)', () => {
  it('keep the earliest sight and the latest position whatever order the writes come in, in one write or many', async () => {
    state = await openStateDb(tempDir('fds-latest-'))
    const writes = [
      [markDeviceSeenOp(seenKey, T), ...lastLocationOps(scope, at(48.85, 2.35), T)],
      [markDeviceSeenOp(seenKey, T + 5_000), ...lastLocationOps(scope, at(51.5, -0.12), T + 5_000)],
      [markDeviceSeenOp(seenKey, T - 5_000), ...lastLocationOps(scope, at(41.9, 12.5), T - 5_000)]
    ]
    for (const ops of writes) await state.committer.commit(ops)
    expect(await firstSeen(state)).toBe(T - 5_000)
    expect(await position(state)).toEqual({ point: { lat: 51.5, lon: -0.12 }, at_ms: T + 5_000 })
    // the same three in the other order, in one atomic write
    await state.committer.commit(writes.slice().reverse().flat())
    expect(await firstSeen(state)).toBe(T - 5_000)
    expect(await position(state)).toEqual({ point: { lat: 51.5, lon: -0.12 }, at_ms: T + 5_000 })
  })

  it('survive a restart, and two positions of one millisecond resolve the same way in any order', async () => {
    const dir = tempDir('fds-latest-')
    state = await openStateDb(dir)
    await state.committer.commit([...lastLocationOps(scope, at(10, 10), T), ...lastLocationOps(scope, at(-10, 20), T)])
    const one = await position(state)
    await state.close()
    state = await openStateDb(dir)
    expect(await position(state)).toEqual(one)
    await state.close()
    state = await openStateDb(tempDir('fds-latest-'))
    await state.committer.commit([...lastLocationOps(scope, at(-10, 20), T), ...lastLocationOps(scope, at(10, 10), T)])
    expect(await position(state)).toEqual(one)
  })

  it('are rewritten from their first format when the store opens, once, before anything merges into them', async () => {
    const dir = tempDir('fds-latest-')
    state = await openStateDb(dir)
    // a store as a build before merges left it: decimal first sights, JSON positions, no upgrade marked
    writeBatchSync(state.db, [
      { type: 'put', key: seenKey, value: Buffer.from(String(T)) },
      { type: 'put', key: locationKey, value: Buffer.from(JSON.stringify({ point: { lat: 48.85, lon: 2.35 }, at_ms: T })) },
      { type: 'del', key: stateKey(TAG.meta, 'latest_format_2') }
    ], true)
    await state.close()
    state = await openStateDb(dir)
    expect(await firstSeen(state)).toBe(T)
    expect(await position(state)).toEqual({ point: { lat: 48.85, lon: 2.35 }, at_ms: T })
    // the old values no longer outrank new ones
    await state.committer.commit([markDeviceSeenOp(seenKey, T - 1_000), ...lastLocationOps(scope, at(51.5, -0.12), T + 1_000)])
    expect(await firstSeen(state)).toBe(T - 1_000)
    expect(await position(state)).toEqual({ point: { lat: 51.5, lon: -0.12 }, at_ms: T + 1_000 })
  })
})
