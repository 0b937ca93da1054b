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
const seqOf = (prefix: Buffer, key: Buffer) => parseInt(key.subarray(prefix.length).toString(), 16)
/** First byte of a reference; never the first byte of a Protobuf message (field number 0 does not exist). */
const REFERENCE = 0

export class Outbox {
  private lastSeq: number

  private constructor (private readonly state: StateDb, lastSeq: number) {
    this.lastSeq = lastSeq
  }

  /**
   * The last sequence is the highest of the last entry still in the outbox and the highest handed out when
   * entries were last removed (noted with each removal): entries carry their sequence, so appending writes
   * nothing more than the entry.
   */
  static async open (state: StateDb): Promise<Outbox> {
    const raw = await state.get(seqKey)
    let last = raw === undefined ? 0 : Number(raw.toString())
    const [prefix, lt] = prefixRange(TAG.outbox)
    for await (const [key] of scan(state.db, prefix, lt, { limit: 1, reverse: true })) last = Math.max(last, seqOf(prefix, key))
    return new Outbox(state, last)
  }

  nextSeq (): number {
    return ++this.lastSeq
  }

  /** Ops that enqueue one entry; they go into the caller's write batch. */
  appendOps (seq: number, value: Uint8Array): WriteOp[] {
    return [{ type: 'put', key: entryKey(seq), value: Buffer.from(value.buffer, value.byteOffset, value.byteLength) }]
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
      out.push({ key, value, seq: seqOf(prefix, key) })
    }
    const references = out.filter(e => e.value[0] === REFERENCE)
    if (references.length > 0) {
      const stored = await this.state.getMany(references.map(e => e.value.subarray(1)))
      references.forEach((e, i) => { e.value = stored[i] ?? Buffer.alloc(0) })
    }
    return out
  }

  /**
   * Ops that remove published entries and note the highest sequence handed out so far: a batch's entries,
   * numbered before single requests that committed first, can be removed after those, and a reopened outbox
   * must not hand out their numbers again.
   */
  removeOps (entries: readonly OutboxEntry[]): WriteOp[] {
    const ops: WriteOp[] = entries.map(e => ({ type: 'del', key: e.key }))
    if (entries.length > 0) ops.push({ type: 'put', key: seqKey, value: Buffer.from(String(this.lastSeq)) })
    return ops
  }
}
