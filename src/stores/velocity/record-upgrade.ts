import { prefixRange, stateId, stateKey, TAG } from '../keys.js'
import { scan, type WriteOp } from '../rocks.js'
import type { StateDb } from '../state-db.js'
import { addAt, emptySlots, type Resolution } from './slots.js'
import { decodeLinks } from './links.js'
import { encodeRecord, type VelocityRecord } from './record.js'
import { decodeRecord } from './stored.js'

/**
 * Records of earlier layouts brought to the current one (record.ts) when a store opens. Each step
 * runs once per store (marked done in the meta keys); a value's old records go in the same atomic write as its
 * new one, so an interrupted step continues where it stopped.
 */
export async function upgradeVelocityRecords (state: StateDb): Promise<void> {
  await foldCounterChunks(state)
  await foldLinkRecords(state)
}

const WRITE_EVERY = 1000

/** Record id (part 0: the tag; 1-4: tenant, mode, dimension, value) of the value whose parts these are. */
const valueRecordId = (parts: string[]) => stateId(TAG.velocity, ...parts.slice(1, 5), 'c')

/**
 * Scans the velocity column, handing each key of the old layout to `fold`, which adds its ops; the ops are
 * written every WRITE_EVERY, between two values (`finish` closes the value before).
 */
async function rewrite (state: StateDb, done: Buffer, fold: (parts: string[], key: Buffer, value: Buffer, ops: WriteOp[]) => void, finish: (ops: WriteOp[]) => void): Promise<void> {
  if (await state.get(done) !== undefined) return
  let ops: WriteOp[] = []
  let current: string | undefined
  for await (const [key, value] of scan(state.db, ...prefixRange(TAG.velocity), { column: state.velocity })) {
    const parts = key.toString().split('\u0000')
    const id = valueRecordId(parts)
    if (id !== current) {
      finish(ops)
      if (ops.length >= WRITE_EVERY) { await state.committer.commit(ops); ops = [] }
      current = id
    }
    fold(parts, key, value, ops)
  }
  finish(ops)
  ops.push({ type: 'put', key: done, value: Buffer.from('1') })
  await state.committer.commit(ops)
}

/**
 * Counter records of the first format, one per dimension value, resolution and chunk of units (60 minutes,
 * 24 hours or 32 days: parts `<dim> <value> <m|h|d> <chunk>`), folded into one record per value.
 */
const CHUNK_UNITS: Record<Resolution, number> = { m: 60, h: 24, d: 32 }
const FIELDS = 3

async function foldCounterChunks (state: StateDb): Promise<void> {
  let current: { id: string, record: VelocityRecord } | undefined
  await rewrite(state, stateKey(TAG.meta, 'velocity_format_2'), (parts, key, value, ops) => {
    const res = parts[5] as Resolution
    if (parts.length !== 7 || CHUNK_UNITS[res] === undefined) return
    const id = valueRecordId(parts)
    if (current?.id !== id) current = { id, record: { counters: emptySlots(), links: undefined } }
    const first = Number(parts[6]) * CHUNK_UNITS[res]
    for (const [slot, count, sum, sumsq] of chunkSlots(value, CHUNK_UNITS[res])) addAt(current.record.counters[res], res, first + slot, count, sum, sumsq)
    ops.push({ type: 'del', key, column: state.velocity })
  }, ops => {
    if (current !== undefined) ops.push({ type: 'put', key: Buffer.from(current.id), value: encodeRecord(current.record), column: state.velocity })
    current = undefined
  })
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

/**
 * Distinct-count records kept apart from their value's record, one per value and other dimension (parts
 * `<dim> <value> x <other dimension>`), moved into it. A value's record sorts before its link records.
 */
async function foldLinkRecords (state: StateDb): Promise<void> {
  // A value's record is decoded only once a link record of its own turns up (most values have none).
  let current: { id: string, counters: Buffer | undefined, record: VelocityRecord | undefined } | undefined
  await rewrite(state, stateKey(TAG.meta, 'velocity_format_3'), (parts, key, value, ops) => {
    const id = valueRecordId(parts)
    if (current?.id !== id) current = { id, counters: undefined, record: undefined }
    if (parts.length === 6 && parts[5] === 'c') current.counters = value
    if (parts.length !== 7 || parts[5] !== 'x') return
    current.record ??= decodeRecord(current.counters)
    ;(current.record.links ??= new Map()).set(parts[6]!, decodeLinks(value))
    ops.push({ type: 'del', key, column: state.velocity })
  }, ops => {
    if (current?.record !== undefined) ops.push({ type: 'put', key: Buffer.from(current.id), value: encodeRecord(current.record), column: state.velocity })
    current = undefined
  })
}
