import { RocksLevel } from '@nxtedition/rocksdb'
import { StorageUnavailable } from './storage-fault.js'

/**
 * One write in a batch; `column` is a column family handle from `db.columns` (default column when absent). A
 * merge adds its value to what the key holds, by the column's merge operator (ColumnOptions.merge).
 */
export type WriteOp =
  | { type: 'put'; key: Buffer; value: Buffer; column?: unknown }
  | { type: 'del'; key: Buffer; column?: unknown }
  | { type: 'merge'; key: Buffer; value: Buffer; column: unknown }

/**
 * The memory of one column family: its memtables (`memtableMb`: four write buffers of a quarter each, flushed
 * two at a time, level compaction) and its block cache (`cacheMb`). RocksDB's defaults (64 MB write buffers,
 * 8 MB cache) would hold hundreds of MB of memtables across the stores under load. Level compaction leaves L0
 * and L1 uncompressed and compresses L2 and below with ZSTD; `dictionary` trains a ZSTD dictionary for every
 * file a compaction writes there (the binding's default), which halves those files and costs the compaction
 * threads CPU in proportion to what they rewrite.
 */
export interface ColumnOptions {
  memtableMb: number
  cacheMb: number
  dictionary: boolean
  /**
   * What a merge does (a column without one refuses merges; keys never merged are not affected by it):
   * - `append`: a read returns the value put last followed by every value merged since, end to end, with no
   *   separator (RocksDB's string-append operator, the variant that joins all operands in one pass), so a value
   *   format that knows its own length reads them one after the other;
   * - `max`: a read returns the greatest of the values put and merged, in byte order (RocksDB's max operator).
   */
  merge?: 'append' | 'max'
}

const MERGE_OPERATORS = { append: '{id=StringAppendTESTOperator;delimiter=}', max: 'max' }

const columnSettings = (o: ColumnOptions) => ({
  compaction: 'level',
  memtableMemoryBudget: o.memtableMb << 20,
  cacheSize: o.cacheMb << 20,
  optimize: 'point-lookup',
  compression: o.dictionary,
  ...(o.merge === undefined ? {} : { mergeOperator: MERGE_OPERATORS[o.merge] })
})

/**
 * Opens (creating if missing) a RocksDB database with buffer keys and values and the given column families.
 * The write-ahead log is not compressed: the binding's default (ZSTD) compresses every write on the thread
 * that writes, the event loop here (3 % of its samples under load, in a `perf` profile).
 */
export async function openRocks (location: string, main: ColumnOptions, columns: Record<string, ColumnOptions> = {}): Promise<RocksLevel> {
  const db = new RocksLevel(location, { keyEncoding: 'buffer', valueEncoding: 'buffer' } as never)
  const settings = Object.fromEntries(Object.entries({ default: main, ...columns }).map(([name, o]) => [name, columnSettings(o)]))
  await db.open({ createIfMissing: true, walCompression: false, columns: settings } as never)
  return db
}

/**
 * Writes ops in one atomic batch; with `sync` the WAL is fsynced before this returns. Runs on the calling thread.
 * The batch is written and closed through the binding's synchronous methods, which skip abstract-level's close:
 * the batch is detached from the database here, or the database would hold every batch ever made (and the
 * native WriteBatch of each, which keeps the capacity of its largest contents) until it is closed.
 */
export function writeBatchSync (db: RocksLevel, ops: readonly WriteOp[], sync: boolean): void {
  const batch = db.batch() as unknown as {
    _put(k: Buffer, v: Buffer, o: object): void
    _del(k: Buffer, o: object): void
    _merge(k: Buffer, v: Buffer, o: object): void
    _writeSync(o: object): void
    _closeSync(): void
  }
  try {
    for (const op of ops) {
      const options = op.column === undefined ? {} : { column: op.column }
      if (op.type === 'put') batch._put(op.key, op.value, options)
      else if (op.type === 'merge') batch._merge(op.key, op.value, options)
      else batch._del(op.key, options)
    }
    try {
      const fault = injectedFault?.(db)
      if (fault !== undefined) throw fault
      batch._writeSync({ sync })
    } catch (err) {
      // The ops are well-formed buffers: a write that fails is the store's fault (a full disk, an I/O error).
      const fault = new StorageUnavailable(storeName(db), err)
      wrote(db, fault)
      throw fault
    }
    wrote(db, undefined)
  } finally {
    batch._closeSync()
    ;(db as unknown as { detachResource(resource: unknown): void }).detachResource(batch)
  }
}

/** The store's directory name (`state`, `log`, `topologies/state`'s `state`), never its whole path. */
function storeName (db: RocksLevel): string {
  const location = (db as unknown as { location?: unknown }).location
  return typeof location === 'string' ? location.split(/[\\/]/).filter(p => p !== '').pop() ?? 'rocksdb' : 'rocksdb'
}

/** Who hears of a database's failed writes and, once one failed, of its next successful one. */
interface WriteWatch { failing: boolean, listeners: Set<(fault: StorageUnavailable | undefined) => void> }
const watches = new WeakMap<object, WriteWatch>()

function wrote (db: RocksLevel, fault: StorageUnavailable | undefined): void {
  const watch = watches.get(db)
  if (watch === undefined || (fault === undefined && !watch.failing)) return
  watch.failing = fault !== undefined
  for (const listener of watch.listeners) listener(fault)
}

/**
 * Calls `listener` with the fault of every write to `db` that fails, and with undefined for the first write
 * that succeeds after one failed (stores/storage-health.ts). Returns a function that stops it.
 */
export function watchWrites (db: RocksLevel, listener: (fault: StorageUnavailable | undefined) => void): () => void {
  let watch = watches.get(db)
  if (watch === undefined) watches.set(db, watch = { failing: false, listeners: new Set() })
  watch.listeners.add(listener)
  return () => { watch.listeners.delete(listener) }
}

let injectedFault: ((db: RocksLevel) => Error | undefined) | undefined

/**
 * Test seam: while set, every write of this thread asks `fault` first, and fails with the error it returns
 * (an ENOSPC as RocksDB reports it, say), exactly as a failing RocksDB write would. Undefined removes it.
 */
export function injectWriteFaults (fault: ((db: RocksLevel) => Error | undefined) | undefined): void {
  injectedFault = fault
}

/**
 * Something that adds to group commits: `beforeWrite` may add ops to a group about to be written (a
 * write-back cache flushing what it holds), `afterWrite` learns whether the group was written.
 */
export interface CommitHook {
  beforeWrite(ops: readonly WriteOp[]): WriteOp[]
  afterWrite(ops: readonly WriteOp[], written: boolean): void
}

/**
 * Group commit: batches submitted during one turn of the event loop are written together as ONE synchronous
 * (fsynced) RocksDB write, so many concurrent requests share one fsync. Each submitter's promise resolves
 * only once its ops are durable; ops of one submit are always in the same atomic write.
 */
export class GroupCommitter {
  private pending: WriteOp[] = []
  private waiters: Array<{ resolve(): void; reject(err: unknown): void }> = []
  private scheduled = false
  readonly hooks: CommitHook[] = []

  constructor (private readonly db: RocksLevel, private readonly sync = true) {}

  commit (ops: readonly WriteOp[]): Promise<void> {
    for (const op of ops) this.pending.push(op)
    const done = new Promise<void>((resolve, reject) => { this.waiters.push({ resolve, reject }) })
    if (!this.scheduled) {
      this.scheduled = true
      setImmediate(() => this.flush())
    }
    return done
  }

  private flush (): void {
    const ops = this.pending
    const waiters = this.waiters
    this.pending = []
    this.waiters = []
    this.scheduled = false
    const all = ops.concat(...this.hooks.map(h => h.beforeWrite(ops)))
    try {
      if (all.length > 0) writeBatchSync(this.db, all, this.sync)
    } catch (err) {
      for (const h of this.hooks) h.afterWrite(ops, false)
      for (const w of waiters) w.reject(err)
      return
    }
    for (const h of this.hooks) h.afterWrite(ops, true)
    for (const w of waiters) w.resolve()
  }
}

/** The JSON values of [gte, lt), in key order. */
export async function * scanJson<T> (db: RocksLevel, gte: Buffer, lt: Buffer, options: { limit?: number } = {}): AsyncGenerator<T> {
  for await (const [, value] of scan(db, gte, lt, options)) yield JSON.parse(value.toString()) as T
}

/**
 * At most `limit` [key, value] pairs of [gte, lt) in key order, read on the calling thread in one call (no
 * thread-pool round trip, which costs more than reading a few hundred records from the memtable). The
 * iterator is detached from the database as `writeBatchSync` detaches its batch.
 */
export function readRangeSync (db: RocksLevel, gte: Buffer, lt: Buffer, limit: number): Array<[Buffer, Buffer]> {
  const it = db.iterator({ gte, lt, limit } as never) as unknown as { _nextvSync(size: number): { rows: Buffer[] }, _closeSync(): void }
  try {
    const { rows } = it._nextvSync(limit)
    const entries: Array<[Buffer, Buffer]> = []
    for (let i = 0; i < rows.length; i += 2) entries.push([rows[i]!, rows[i + 1]!])
    return entries
  } finally {
    it._closeSync()
    ;(db as unknown as { detachResource(resource: unknown): void }).detachResource(it)
  }
}

/** Iterates [gte, lt) in key order (or the reverse), yielding [key, value] pairs. */
export async function * scan (db: RocksLevel, gte: Buffer, lt: Buffer, options: { column?: unknown; limit?: number; reverse?: boolean } = {}): AsyncGenerator<[Buffer, Buffer]> {
  const it = db.iterator({ gte, lt, limit: options.limit ?? -1, column: options.column, reverse: options.reverse ?? false } as never) as unknown as AsyncIterable<[Buffer, Buffer]> & { close(): Promise<void> }
  try {
    for await (const entry of it) yield entry
  } finally {
    await it.close()
  }
}

/**
 * The database another thread opened (`handle`: its RocksLevel's `handle`), for use from this thread. It stays
 * that thread's to close: closing it here would close it there too.
 */
export async function openShared (handle: bigint): Promise<RocksLevel> {
  const db = new RocksLevel(handle as never, { keyEncoding: 'buffer', valueEncoding: 'buffer' } as never)
  await db.open()
  return db
}
