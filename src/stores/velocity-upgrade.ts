import { prefixRange, stateId, stateKey, TAG } from './keys.js'
import { scan, type WriteOp } from './rocks.js'
import type { StateDb } from './state-db.js'
import { addAt, emptySlots, encodeSlots, type Resolution, type Slots } from './velocity-slots.js'

/**
 * Counter records of the first format, one per dimension value, resolution and chunk of units (60 minutes,
 * 24 hours or 32 days: parts `<dim> <value> <m|h|d> <chunk>`), folded into the per-value records of
 * velocity-slots.ts. Runs once per store (marked done in the meta keys); each value's old records go in the
 * same atomic write as its new one, so an interrupted upgrade continues where it stopped.
 */
const DONE = stateKey(TAG.meta, 'velocity_format_2')
const CHUNK_UNITS: Record<Resolution, number> = { m: 60, h: 24, d: 32 }
const FIELDS = 3
const WRITE_EVERY = 1000

export async function upgradeVelocityRecords (state: StateDb): Promise<void> {
  if (await state.get(DONE) !== undefined) return
  const column = state.velocity
  let ops: WriteOp[] = []
  let current: { id: string, slots: Slots } | undefined
  const finish = () => { if (current !== undefined) ops.push({ type: 'put', key: Buffer.from(current.id), value: encodeSlots(current.slots), column }) }
  for await (const [key, value] of scan(state.db, ...prefixRange(TAG.velocity), { column })) {
    const parts = key.toString().split('\u0000')
    const res = parts[5] as Resolution
    if (parts.length !== 7 || CHUNK_UNITS[res] === undefined) continue
    const id = stateId(TAG.velocity, ...parts.slice(1, 5), 'c')
    if (current?.id !== id) {
      finish()
      if (ops.length >= WRITE_EVERY) { await state.committer.commit(ops); ops = [] }
      current = { id, slots: emptySlots() }
    }
    const first = Number(parts[6]) * CHUNK_UNITS[res]
    for (const [slot, count, sum, sumsq] of chunkSlots(value, CHUNK_UNITS[res])) addAt(current.slots[res], res, first + slot, count, sum, sumsq)
    ops.push({ type: 'del', key, column })
  }
  finish()
  ops.push({ type: 'put', key: DONE, value: Buffer.from('1') })
  await state.committer.commit(ops)
}

/** The slots of a first-format chunk that hold something: dense (every slot, float64 x3) or sparse (a format byte, then u16 slot and float64 x3 each). */
function * chunkSlots (raw: Buffer, slots: number): Generator<[number, number, number, number]> {
  if (raw.byteLength === slots * FIELDS * 8) {
    for (let i = 0; i < slots; i++) {
      const at = i * FIELDS * 8
      const count = raw.readDoubleLE(at)
      const sum = raw.readDoubleLE(at + 8)
      if (count !== 0 || sum !== 0) yield [i, count, sum, raw.readDoubleLE(at + 16)]
    }
    return
  }
  for (let at = 1; at < raw.byteLength; at += 2 + FIELDS * 8) {
    yield [raw.readUInt16LE(at), raw.readDoubleLE(at + 2), raw.readDoubleLE(at + 10), raw.readDoubleLE(at + 18)]
  }
}
