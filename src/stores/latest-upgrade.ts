import { prefixRange, stateKey, TAG } from './keys.js'
import { scan, type GroupCommitter, type WriteOp } from './rocks.js'
import type { RocksLevel } from '@nxtedition/rocksdb'
import { encodeFirstSeen } from './device-history.js'
import { encodeLastLocation } from './last-location.js'
import type { LastLocation } from '../domain/features/extract.js'

const DONE = stateKey(TAG.meta, 'latest_format_2')
const WRITE_EVERY = 1000

/**
 * First sights and last positions of the first format (a decimal time; JSON), rewritten in the merged one
 * (device-history.ts, last-location.ts) when the store opens, before anything merges into them: the max
 * operator compares bytes, and an old value would outrank every new one. Runs once per store (marked done);
 * run again after an interruption, it rewrites only what is still old.
 */
export async function upgradeLatestValues (state: { db: RocksLevel, committer: GroupCommitter, get(key: Buffer): Promise<Buffer | undefined> }): Promise<void> {
  if (await state.get(DONE) !== undefined) return
  let ops: WriteOp[] = []
  const rewrite = async (tag: string, upgraded: (value: Buffer) => Buffer | undefined) => {
    for await (const [key, value] of scan(state.db, ...prefixRange(tag))) {
      const next = upgraded(value)
      if (next !== undefined) ops.push({ type: 'put', key, value: next })
      if (ops.length >= WRITE_EVERY) { await state.committer.commit(ops); ops = [] }
    }
  }
  await rewrite(TAG.deviceSeen, value => value.length === 8 ? undefined : encodeFirstSeen(Number(value.toString())))
  await rewrite(TAG.lastLocation, value => value[0] === 0x7b ? encodeLastLocation(JSON.parse(value.toString()) as LastLocation) : undefined)
  ops.push({ type: 'put', key: DONE, value: Buffer.from('1') })
  await state.committer.commit(ops)
}
