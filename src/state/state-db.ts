import type { RocksLevel } from '@nxtedition/rocksdb'
import { GroupCommitter, openRocks } from '../storage/rocks.js'

/** The local state store of one instance: RocksDB at <dataDir>/state with a counter column for velocity. */
export interface StateDb {
  db: RocksLevel
  velocity: unknown
  committer: GroupCommitter
  get(key: Buffer): Promise<Buffer | undefined>
  getMany(keys: Buffer[], column?: unknown): Promise<Array<Buffer | undefined>>
  close(): Promise<void>
}

export async function openStateDb (location: string): Promise<StateDb> {
  const db = await openRocks(location, { velocity: { mergeOperator: 'uint64add' } })
  const velocity = (db.columns as Record<string, unknown>).velocity
  const getMany = (keys: Buffer[], column?: unknown) =>
    keys.length === 0 ? Promise.resolve([]) : db.getMany(keys, (column === undefined ? {} : { column }) as never) as Promise<Array<Buffer | undefined>>
  return {
    db,
    velocity,
    committer: new GroupCommitter(db),
    getMany,
    get: async key => (await getMany([key]))[0],
    close: () => db.close()
  }
}
