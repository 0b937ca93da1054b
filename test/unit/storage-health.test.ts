import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { injectWriteFaults, writeBatchSync } from '../../src/stores/rocks.js'
import { isStorageFault, StorageUnavailable } from '../../src/stores/storage-fault.js'
import { openStateDb, type StateDb } from '../../src/stores/state-db.js'
import { eventually } from '../support/app.js'

const dirs: string[] = []
const states: StateDb[] = []
afterEach(async () => {
  injectWriteFaults(undefined)
  for (const s of states.splice(0)) await s.close()
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})
const fresh = () => { const d = mkdtempSync(path.join(tmpdir(), 'fds-storage-')); dirs.push(d); return d }
const enospc = () => Object.assign(new Error('IO error: No space left on device: While appending to file: /data/state/000004.log: No space left on device'), { code: 'LEVEL_IO_ERROR' })
const put = (state: StateDb) => writeBatchSync(state.db, [{ type: 'put', key: Buffer.from('k'), value: Buffer.from('v') }], true)

async function open (reserve?: { file: string, bytes: number, keep: boolean }): Promise<StateDb> {
  const dir = fresh()
  const state = await openStateDb(path.join(dir, 'state'), { reserve, probeEveryMs: 20 })
  states.push(state)
  return state
}

describe('storage health', () => {
  it('a failed write is StorageUnavailable and fails the store until a write passes (the probe, by itself)', async () => {
    const state = await open()
    state.storage.start()
    injectWriteFaults(() => enospc())
    let thrown: unknown
    try { put(state) } catch (err) { thrown = err }
    expect(thrown).toBeInstanceOf(StorageUnavailable)
    expect(isStorageFault(thrown)).toBe(true)
    expect(state.storage.writable).toBe(false)
    expect(state.storage.reasons()).toEqual([expect.stringMatching(/^the local store 'state' cannot write \(no space left on device\) since /)])
    expect(state.storage.reasons().join(' '), 'no file path').not.toMatch(/\//)
    expect(() => state.storage.assertWritable()).toThrow(StorageUnavailable)
    // Still failing: the probe keeps it so; once writes pass, the probe clears it.
    await new Promise(resolve => setTimeout(resolve, 60))
    expect(state.storage.writable).toBe(false)
    injectWriteFaults(undefined)
    await eventually(() => state.storage.writable || undefined, 2000, 'the probe clearing the failure')
    expect(state.storage.reasons()).toEqual([])
  })

  it('an error of the data, not the store, is no storage fault', () => {
    expect(isStorageFault(new SyntaxError('Unexpected token'))).toBe(false)
    expect(isStorageFault(new Error('index out of range'))).toBe(false)
    expect(isStorageFault(new Error('outer', { cause: enospc() }))).toBe(true)
  })

  it('keeps a storage reserve, deletes it when the disk is full, refuses writes until it is back', async () => {
    const dir = fresh()
    const file = path.join(dir, 'storage-reserve')
    const state = await open({ file, bytes: 2 << 20, keep: true })
    state.storage.start()
    await eventually(() => existsSync(file) || undefined, 5000, 'the reserve written')
    expect(statSync(file).size).toBe(2 << 20)
    expect(state.storage.writable).toBe(true)
    injectWriteFaults(() => enospc())
    expect(() => put(state)).toThrow(StorageUnavailable)
    expect(existsSync(file), 'the reserve deleted at the failure').toBe(false)
    expect(() => state.storage.assertWritable()).toThrow(StorageUnavailable)
    injectWriteFaults(undefined)
    // This disk has room: the reserve is written again and writes are taken again.
    await eventually(() => state.storage.writable || undefined, 5000, 'writable again')
    expect(statSync(file).size).toBe(2 << 20)
  })

  it('a process that does not keep the reserve deletes it on a full disk and leaves it to its keeper', async () => {
    const dir = fresh()
    const file = path.join(dir, 'storage-reserve')
    writeFileSync(file, Buffer.alloc(1024))
    const state = await open({ file, bytes: 1024, keep: false })
    state.storage.start()
    injectWriteFaults(() => enospc())
    expect(() => put(state)).toThrow(StorageUnavailable)
    expect(existsSync(file)).toBe(false)
    injectWriteFaults(undefined)
    await eventually(() => state.storage.writable || undefined, 2000, 'the store writing again')
    expect(existsSync(file)).toBe(false)
  })
})
