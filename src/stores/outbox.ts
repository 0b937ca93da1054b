import { scan, type WriteOp } from './rocks.js'
import { prefixRange, stateKey, TAG } from './keys.js'
import type { StateDb } from './state-db.js'

/**
 * The transactional outbox: encoded events written in the same RocksDB batch as the state change that
 * produced them, keyed by a per-instance sequence so the relay publishes them in order. An entry holds the
 * event's bytes, or a reference to the key they are stored under in the same batch (a decision's transaction
 * record: the bytes are written once); `read` returns the bytes either way.
 */
export interface OutboxEntry { key: Buffer, seq: number, value: Buffer }

const seqKey = stateKey(TAG.meta, 'outbox_seq')
const entryKey = (seq: number) => stateKey(TAG.outbox, seq.toString(16).padStart(16, '0'))
/** First byte of a reference; never the first byte of a Protobuf message (field number 0 does not exist). */
const REFERENCE = 0

export class Outbox {
  private lastSeq: number

  private constructor (private readonly state: StateDb, lastSeq: number) {
    this.lastSeq = lastSeq
  }

  static async open (state: StateDb): Promise<Outbox> {
    const raw = await state.get(seqKey)
    return new Outbox(state, raw === undefined ? 0 : Number(raw.toString()))
  }

  nextSeq (): number {
    return ++this.lastSeq
  }

  /** Ops that enqueue one entry; they go into the caller's write batch. */
  appendOps (seq: number, value: Uint8Array): WriteOp[] {
    return [
      { type: 'put', key: entryKey(seq), value: Buffer.from(value.buffer, value.byteOffset, value.byteLength) },
      { type: 'put', key: seqKey, value: Buffer.from(String(seq)) }
    ]
  }

  /** Ops that enqueue one entry whose bytes the same batch stores under `storedAt`. */
  appendReferenceOps (seq: number, storedAt: Buffer): WriteOp[] {
    return this.appendOps(seq, Buffer.concat([Buffer.of(REFERENCE), storedAt]))
  }

  /**
   * Up to `max` entries with seq > afterSeq, in order (starting past published ones skips their tombstones).
   * A reference whose record is gone reads as no bytes (an entry nothing can decode).
   */
  async read (max: number, afterSeq = 0): Promise<OutboxEntry[]> {
    const [prefix, lt] = prefixRange(TAG.outbox)
    const out: OutboxEntry[] = []
    for await (const [key, value] of scan(this.state.db, entryKey(afterSeq + 1), lt, { limit: max })) {
      out.push({ key, value, seq: parseInt(key.subarray(prefix.length).toString(), 16) })
    }
    const references = out.filter(e => e.value[0] === REFERENCE)
    if (references.length > 0) {
      const stored = await this.state.getMany(references.map(e => e.value.subarray(1)))
      references.forEach((e, i) => { e.value = stored[i] ?? Buffer.alloc(0) })
    }
    return out
  }

  removeOps (entries: readonly OutboxEntry[]): WriteOp[] {
    return entries.map(e => ({ type: 'del', key: e.key }))
  }
}
