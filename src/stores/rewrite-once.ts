import type { RocksLevel } from '@nxtedition/rocksdb'
import { prefixRange, stateKey, TAG } from './keys.js'
import { scan, type GroupCommitter, type WriteOp } from './rocks.js'

/** What a rewrite at opening needs of the state store (not StateDb: the store runs it before it is one). */
export interface OpeningStore { db: RocksLevel, committer: GroupCommitter, get(key: Buffer): Promise<Buffer | undefined> }

const WRITE_EVERY = 1000

/**
 * Writes what every stored value of one key space (`tag`) calls for, when the store opens: an index added after
 * those values were stored. Runs once per store, marked done under `marker`; run again after an interruption,
 * it writes the same ops again, which changes nothing. Commits a thousand ops at a time; returns how many values
 * it read (0 when already done).
 */
export async function rewriteOnce (state: OpeningStore, marker: string, tag: string, opsOf: (value: Buffer) => WriteOp[]): Promise<number> {
  const done = stateKey(TAG.meta, marker)
  if (await state.get(done) !== undefined) return 0
  let ops: WriteOp[] = []
  let read = 0
  for await (const [, value] of scan(state.db, ...prefixRange(tag))) {
    read++
    ops.push(...opsOf(value))
    if (ops.length >= WRITE_EVERY) { await state.committer.commit(ops); ops = [] }
  }
  ops.push({ type: 'put', key: done, value: Buffer.from('1') })
  await state.committer.commit(ops)
  return read
}
