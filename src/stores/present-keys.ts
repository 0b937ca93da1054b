import { prefixRange } from './keys.js'
import { scan, type CommitHook, type WriteOp } from './rocks.js'
import type { StateDb } from './state-db.js'

/**
 * Which keys under some tags exist in a store, in memory, for point reads that mostly find nothing (the
 * overrides and case gates of a request's subjects: most subjects have neither). Loaded once; every key a
 * group commit puts under those tags joins before the write (a read before it is durable finds nothing, as
 * it would without the index). Deleted keys stay: a stale entry costs one read, never a wrong answer.
 */
export class PresentKeys implements CommitHook {
  private readonly present = new Set<string>()
  private constructor (private readonly tags: Set<number>) {}

  static async open (state: StateDb, tags: string[]): Promise<PresentKeys> {
    const index = new PresentKeys(new Set(tags.map(t => t.charCodeAt(0))))
    // Watching first: a key written while the scan runs is seen by one or the other.
    state.committer.hooks.push(index)
    for (const tag of tags) for await (const [key] of scan(state.db, ...prefixRange(tag))) index.present.add(key.toString('latin1'))
    return index
  }

  /** False when the key is certainly absent from the store. */
  mayExist (key: Buffer): boolean {
    return this.present.has(key.toString('latin1'))
  }

  beforeWrite (ops: readonly WriteOp[]): WriteOp[] {
    for (const op of ops) if (op.type === 'put' && op.column === undefined && this.tags.has(op.key[0]!)) this.present.add(op.key.toString('latin1'))
    return []
  }

  afterWrite (): void {}
}
