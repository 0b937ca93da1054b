import type { RocksLevel } from '@nxtedition/rocksdb'
import { GroupCommitter, openRocks } from './rocks.js'
import { stateKey, TAG } from './keys.js'
import { indexStoredCases } from './case-index-upgrade.js'
import { upgradeLatestValues } from './latest-upgrade.js'
import { indexStoredTransactions } from './transaction-index-upgrade.js'
import { StorageHealth, type StorageHealthOptions } from './storage-health.js'

/** The local state store of one instance: RocksDB at <dataDir>/state with a column for velocity records. */
export interface StateDb {
  db: RocksLevel
  velocity: unknown
  committer: GroupCommitter
  /** Whether writes succeed (this store's, and those of stores added with `storage.watch`). */
  storage: StorageHealth
  get(key: Buffer): Promise<Buffer | undefined>
  getMany(keys: Buffer[], column?: unknown): Promise<Array<Buffer | undefined>>
  /** getMany on the calling thread, for callers that must not yield (it is what getMany does inside). */
  getManySync(keys: Buffer[], column?: unknown): Array<Buffer | undefined>
  close(): Promise<void>
}

/** Where the storage health probes the state store (stores/storage-health.ts). */
export const STORAGE_PROBE_KEY = stateKey(TAG.meta, 'storage_probe')

export async function openStateDb (location: string, options: StorageHealthOptions = {}): Promise<StateDb> {
  // Small block caches: reading a present velocity record cost the same whether a block cache held it or the OS
  // page cache did (docs/benchmarks.md, "Settings these figures chose"); once a large state filled them, 32 MB caches held 40-50 MB more
  // RSS than 8 MB ones for 5 % more throughput. No compression dictionary: velocity records are
  // rewritten on every flush, and training a dictionary for each file compaction rewrites was a third of the
  // compaction threads' CPU after 1,000,000 decisions; the state's files take twice the disk without.
  // The default column keeps the greatest value merged into a key: first sights and last positions (decision-ops.ts).
  const db = await openRocks(location, { memtableMb: 32, cacheMb: 8, dictionary: false, merge: 'max' }, { velocity: { memtableMb: 16, cacheMb: 8, dictionary: false, merge: 'append' } })
  const velocity = (db.columns as Record<string, unknown>).velocity
  // Point reads run synchronously: from the memtable or block cache a multi-get takes ~10 us, while the
  // thread-pool round trip of the async variant costs ~200 us per call (measured: docs/benchmarks.md).
  const binding = db as unknown as { _getManySync(keys: Buffer[], options: object): Array<Buffer | undefined> }
  const getManySync = (keys: Buffer[], column?: unknown) =>
    keys.length === 0 ? [] : binding._getManySync(keys, column === undefined ? {} : { column })
  const getMany = async (keys: Buffer[], column?: unknown) => getManySync(keys, column)
  const storage = new StorageHealth(options)
  storage.watch('state', db, STORAGE_PROBE_KEY)
  const state: StateDb = {
    db,
    velocity,
    committer: new GroupCommitter(db),
    storage,
    getMany,
    getManySync,
    get: async key => (await getMany([key]))[0],
    close: async () => {
      await storage.stop()
      await db.close()
    }
  }
  await upgradeLatestValues(state)
  await indexStoredTransactions(state)
  await indexStoredCases(state)
  return state
}
