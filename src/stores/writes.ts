import type { WriteOp } from './rocks.js'

/**
 * The writes of one batch as a store's apply function sees them (a view's batch, committed with its
 * checkpoint): reads see the batch's earlier writes.
 */
export interface StoreWrites {
  get(key: Buffer): Promise<Buffer | undefined>
  put(key: Buffer, value: Buffer): void
  del(key: Buffer): void
  /** Ops made elsewhere (velocity increments), written in the same batch; `settled` runs once it is written or failed (`written` says which). */
  append(ops: () => WriteOp[], settled?: (written: boolean) => void): void
}
