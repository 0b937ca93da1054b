import { existsSync, statSync, statfsSync, unlinkSync } from 'node:fs'
import { open, rename, unlink } from 'node:fs/promises'
import path from 'node:path'
import type { RocksLevel } from '@nxtedition/rocksdb'
import type { Logger } from 'pino'
import { watchWrites, writeBatchSync } from './rocks.js'
import { isOutOfSpace, StorageUnavailable } from './storage-fault.js'

/**
 * Room kept on the data directory's disk for the stores' own recovery: a file of `bytes` that is deleted when
 * a write fails for lack of space. RocksDB stops writing after such a failure and resumes only once it has
 * flushed its memtables to disk (up to the memtable budget of each store, tens of MB); without free room for
 * that flush it stays stopped until a restart, however much else is freed (issue 33). `keep`: this process
 * creates the file (and creates it again once the disk has room); a process without it only deletes it.
 */
export interface StorageReserve { file: string, bytes: number, keep: boolean }

export interface StorageHealthOptions {
  reserve?: StorageReserve
  /** How often failing stores are probed with a write, and the reserve checked (ms). */
  probeEveryMs?: number
  logger?: Logger
  clock?: () => number
}

interface WatchedStore { name: string, db: RocksLevel, probeKey: Buffer, failure: { since_ms: number, error: string } | undefined, unwatch: () => void }

const MB = 1 << 20
const CHUNK = Buffer.alloc(MB)

/** What a fault says to a reader of /readyz or an error message: its kind, never a file path. */
export const faultSummary = (err: unknown): string => isOutOfSpace(err) ? 'no space left on device' : 'I/O error'

/** Free bytes of the file system holding `dir` (for an unprivileged process). */
function freeBytes (dir: string): number {
  const s = statfsSync(dir)
  return s.bavail * s.bsize
}

/**
 * Whether this process's local stores can write. A store is failing from a failed write until a write to it
 * succeeds again: any write, or the probe this class writes every `probeEveryMs` while it fails. With a
 * reserve: a write failing for lack of space deletes the reserve (the store recovers into that room, and the
 * pipeline drains what was already answered), and requests that write are refused (`assertWritable`) until
 * the disk has room for the reserve again plus a quarter of it, when the reserve is created again.
 */
export class StorageHealth {
  private readonly stores: WatchedStore[] = []
  private readonly probeEveryMs: number
  /** Its log lines, bound to `component: 'storage'`. */
  private readonly logger: Logger | undefined
  private readonly clock: () => number
  private timer: NodeJS.Timeout | undefined
  private creating: Promise<void> | undefined
  /** Since when the kept reserve is missing (undefined: it is in place, or being created). */
  private reserveMissingSince: number | undefined
  /** Set when the disk filled while the reserve was being written: the write stops, its room is given back. */
  private abortCreation = false
  private ticking = false

  constructor (private readonly options: StorageHealthOptions = {}) {
    this.logger = options.logger?.child({ component: 'storage' })
    this.probeEveryMs = options.probeEveryMs ?? 1000
    this.clock = options.clock ?? Date.now
  }

  /** Watches the writes of `db` (named `name` in reasons); `probeKey` is a key of its own the probe writes. */
  watch (name: string, db: RocksLevel, probeKey: Buffer): void {
    const store: WatchedStore = { name, db, probeKey, failure: undefined, unwatch: () => {} }
    store.unwatch = watchWrites(db, fault => { if (fault === undefined) this.recovered(store); else this.failed(store, fault) })
    this.stores.push(store)
  }

  /** Creates the reserve when this process keeps it, and starts probing. */
  start (): void {
    const reserve = this.options.reserve
    // A reserve of another size (STORAGE_RESERVE_MB changed) is written again at this one.
    if (reserve?.keep === true && existsSync(reserve.file) && statSync(reserve.file).size !== reserve.bytes) unlinkSync(reserve.file)
    if (reserve?.keep === true && !existsSync(reserve.file)) {
      if (this.roomFor(reserve)) this.creating = this.create(reserve).finally(() => { this.creating = undefined })
      else this.reserveMissingSince = this.clock()
    }
    this.timer = setInterval(() => { void this.tick() }, this.probeEveryMs)
    this.timer.unref()
    void this.tick()
  }

  async stop (): Promise<void> {
    clearInterval(this.timer)
    this.timer = undefined
    await this.creating
    for (const s of this.stores.splice(0)) s.unwatch()
  }

  /** Why writes cannot be relied on now (empty: they can); for /readyz, without file paths. */
  reasons (): string[] {
    const out = this.stores.filter(s => s.failure !== undefined).map(s =>
      `the local store '${s.name}' cannot write (${s.failure!.error}) since ${new Date(s.failure!.since_ms).toISOString()}`)
    if (this.reserveMissingSince !== undefined) {
      const reserve = this.options.reserve!
      out.push(`free space on the data directory's disk is below what the storage reserve needs (${Math.round(this.needed(reserve) / MB)} MB) since ${new Date(this.reserveMissingSince).toISOString()}: writes are refused`)
    }
    return out
  }

  get writable (): boolean {
    return this.reserveMissingSince === undefined && this.stores.every(s => s.failure === undefined)
  }

  /**
   * Throws StorageUnavailable while a store is failing or the disk is below its reserve: a request that
   * writes is refused before it records anything (and does not take the room the stores need to recover).
   * A failing store is probed every `probeEveryMs`, so a request waits at most that long after it recovers.
   */
  assertWritable (): void {
    const failing = this.stores.find(s => s.failure !== undefined)
    if (failing !== undefined) throw new StorageUnavailable(failing.name, new Error(failing.failure!.error === 'no space left on device' ? 'No space left on device' : 'IO error: the store cannot write'))
    if (this.reserveMissingSince !== undefined) throw new StorageUnavailable('data directory', new Error('No space left on device (below the storage reserve)'))
  }

  private failed (store: WatchedStore, fault: StorageUnavailable): void {
    if (store.failure === undefined) {
      store.failure = { since_ms: this.clock(), error: faultSummary(fault) }
      this.logger?.error({ err: fault, store: store.name }, 'a write failed; requests that write are answered 503 until it recovers')
    }
    if (isOutOfSpace(fault)) this.giveUpReserve()
  }

  private recovered (store: WatchedStore): void {
    if (store.failure === undefined) return
    store.failure = undefined
    this.logger?.warn({ store: store.name }, 'writes succeed again')
  }

  /** Deletes the reserve (whoever created it): the room the stores need to flush and write again. */
  private giveUpReserve (): void {
    const reserve = this.options.reserve
    if (reserve === undefined) return
    try {
      unlinkSync(reserve.file)
      this.logger?.warn({ bytes: reserve.bytes }, 'the disk is full; the storage reserve was deleted to let the stores recover')
    } catch { /* already gone, or being created */ }
    if (this.creating !== undefined) this.abortCreation = true
    else if (reserve.keep) this.reserveMissingSince ??= this.clock()
  }

  /** Free bytes the disk needs before the reserve is created again: the reserve and a quarter of it (at least 4 MB). */
  private needed (reserve: StorageReserve): number {
    return reserve.bytes + Math.max(reserve.bytes / 4, 4 * MB)
  }

  private async tick (): Promise<void> {
    if (this.ticking) return
    this.ticking = true
    try {
      const reserve = this.options.reserve
      if (reserve?.keep === true && this.creating === undefined) {
        if (this.reserveMissingSince === undefined && !existsSync(reserve.file)) this.reserveMissingSince = this.clock()
        if (this.reserveMissingSince !== undefined && this.roomFor(reserve)) {
          this.creating = this.create(reserve).finally(() => { this.creating = undefined })
          await this.creating
        }
      }
      for (const s of this.stores) {
        if (s.failure === undefined) continue
        try {
          writeBatchSync(s.db, [{ type: 'put', key: s.probeKey, value: Buffer.from(String(this.clock())) }], true)
        } catch { /* still failing: the watch keeps it so */ }
      }
    } finally {
      this.ticking = false
    }
  }

  private roomFor (reserve: StorageReserve): boolean {
    try {
      return freeBytes(path.dirname(reserve.file)) >= this.needed(reserve)
    } catch {
      return false
    }
  }

  /** Writes the reserve in 1 MB chunks (a sparse file would keep no room); a write that fails removes it. */
  private async create (reserve: StorageReserve): Promise<void> {
    const partial = `${reserve.file}.new`
    this.abortCreation = false
    try {
      const file = await open(partial, 'w')
      try {
        for (let written = 0; written < reserve.bytes; written += MB) {
          if (this.abortCreation) throw new Error('No space left on device: a store filled the disk meanwhile')
          await file.write(CHUNK, 0, Math.min(MB, reserve.bytes - written))
        }
      } finally {
        await file.close()
      }
      await rename(partial, reserve.file)
      if (this.reserveMissingSince !== undefined) this.logger?.info({ bytes: reserve.bytes }, 'the storage reserve is in place; writes are taken again')
      this.reserveMissingSince = undefined
    } catch (err) {
      await unlink(partial).catch(() => {})
      this.reserveMissingSince ??= this.clock()
      this.logger?.warn({ err }, 'the storage reserve could not be created; writes are refused until the disk has room')
    }
  }
}
