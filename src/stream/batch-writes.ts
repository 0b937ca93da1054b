import type { StateDb } from '../stores/state-db.js'
import type { StoreWrites } from '../stores/writes.js'
import type { WriteOp } from '../stores/rocks.js'

/** The writes of one batch, readable before they are committed (later records see earlier ones). */
export class BatchWrites implements StoreWrites {
  private readonly pending = new Map<string, Buffer | null>()
  private readonly extra: Array<() => WriteOp[]> = []
  private readonly settled: Array<(written: boolean) => void> = []

  constructor (private readonly state: StateDb) {}

  async get (key: Buffer): Promise<Buffer | undefined> {
    const hit = this.pending.get(key.toString('latin1'))
    if (hit !== undefined) return hit ?? undefined
    return this.state.get(key)
  }

  /** `get` of each key, the keys not written in this batch read from the store in one multi-get. */
  async getMany (keys: Buffer[]): Promise<Array<Buffer | undefined>> {
    const found: Array<Buffer | undefined> = new Array(keys.length)
    const missing: number[] = []
    keys.forEach((key, i) => {
      const hit = this.pending.get(key.toString('latin1'))
      if (hit === undefined) missing.push(i)
      else found[i] = hit ?? undefined
    })
    const read = await this.state.getMany(missing.map(i => keys[i]!))
    missing.forEach((i, j) => { found[i] = read[j] })
    return found
  }

  put (key: Buffer, value: Buffer): void { this.pending.set(key.toString('latin1'), value) }
  del (key: Buffer): void { this.pending.set(key.toString('latin1'), null) }

  /** Puts and deletes made as write ops elsewhere (a store's own op builders); merges go through `append`. */
  apply (ops: readonly WriteOp[]): void {
    for (const op of ops) {
      if (op.type === 'put') this.put(op.key, op.value)
      else if (op.type === 'del') this.del(op.key)
      else throw new Error('a merge is not readable in a batch: hand it over with append')
    }
  }

  /**
   * Ops made elsewhere (velocity increments), written in the same batch. `ops` runs when the batch is handed to
   * the committer, with no await in between (increments reach the store in the order they hit its cache);
   * `settled` runs once the batch is committed or failed, told which.
   */
  append (ops: () => WriteOp[], settled?: (written: boolean) => void): void {
    this.extra.push(ops)
    if (settled !== undefined) this.settled.push(settled)
  }

  get empty (): boolean { return this.pending.size === 0 && this.extra.length === 0 }

  ops (): WriteOp[] {
    const own: WriteOp[] = [...this.pending].map(([k, v]) => v === null ? { type: 'del', key: Buffer.from(k, 'latin1') } : { type: 'put', key: Buffer.from(k, 'latin1'), value: v })
    return [...own, ...this.extra.flatMap(fn => fn())]
  }

  /** The batch was committed (`written`) or failed. */
  settle (written: boolean): void {
    for (const fn of this.settled.splice(0)) fn(written)
  }
}
