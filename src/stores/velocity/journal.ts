import type { Scope } from '../../domain/scope.js'
import { prefixRange, stateKey, TAG } from '../keys.js'
import { scan, type WriteOp } from '../rocks.js'
import type { StateDb } from '../state-db.js'
import type { Increments } from './read-plan.js'

/** What one event incremented: enough to apply it again after a crash. */
export interface JournalEntry extends Increments { tenant: string, mode: Scope['mode'], t: number, a: number }

/**
 * The journal of increments held in the write-back cache (write-back-cache.ts): each event's durable write
 * carries one small entry saying what it incremented; a record flush deletes the entries it covers. Entries
 * are pending from the event until its write is durable (or failed), then durable until a flush covers them.
 */
export class Journal {
  /** Entries of increments in the cache whose write is not durable yet. */
  private readonly pending = new Set<WriteOp>()
  /** Keys of durable entries whose increments are not in the stored records yet. */
  private durable: Buffer[] = []
  private readonly boot = String(Date.now()).padStart(15, '0')
  private seq = 0

  /** The op writing one event's entry, pending until its write is durable. */
  add (entry: JournalEntry): WriteOp {
    const op: WriteOp = { type: 'put', key: stateKey(TAG.velocityJournal, this.boot, String(this.seq++).padStart(12, '0')), value: Buffer.from(JSON.stringify(entry)) }
    this.pending.add(op)
    return op
  }

  inflight (op: WriteOp): boolean { return this.pending.has(op) }
  forget (op: WriteOp): void { this.pending.delete(op) }

  /** An entry an earlier run left (its increments re-applied): durable, not in the stored records yet. */
  recovered (key: Buffer): void { this.durable.push(key) }

  /**
   * The pending entries among `ops`, or undefined when some other entry is pending too: its write may still
   * fail, so records holding its increments must wait for a later write.
   */
  pendingIn (ops: readonly WriteOp[]): Set<WriteOp> | undefined {
    const inGroup = new Set<WriteOp>()
    for (const op of ops) if (this.pending.has(op)) inGroup.add(op)
    return inGroup.size === this.pending.size ? inGroup : undefined
  }

  /** Deletes of the entries a record flush covers, added to `out`: the durable ones and those of its own write. */
  coveredBy (inGroup: Set<WriteOp>, out: WriteOp[]): WriteOp[] {
    for (const key of this.durable) out.push({ type: 'del', key })
    for (const op of inGroup) out.push({ type: 'del', key: op.key })
    return out
  }

  /** A write of `ops` is durable: their entries are too, and with a record flush every entry is in the records. */
  written (ops: readonly WriteOp[], flushed: boolean): void {
    for (const op of ops) {
      if (!this.pending.delete(op)) continue
      if (!flushed) this.durable.push(op.key)
    }
    if (flushed) this.durable = []
  }
}

/** The entries a crash left in the store (their increments not in the records yet), oldest first. */
export async function * entriesLeft (state: StateDb): AsyncGenerator<[Buffer, JournalEntry]> {
  const [gte, lt] = prefixRange(TAG.velocityJournal)
  for await (const [key, value] of scan(state.db, gte, lt)) yield [key, JSON.parse(value.toString()) as JournalEntry]
}
