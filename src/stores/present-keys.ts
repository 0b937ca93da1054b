import { prefixRange } from './keys.js'
import { scan, type CommitHook, type WriteOp } from './rocks.js'
import type { StateDb } from './state-db.js'

/**
 * Which keys under some tags exist in a store, in memory, for point reads that mostly find nothing (the
 * overrides and case gates of a request's subjects: most subjects have neither). Loaded once; every key a
 * group commit puts under those tags joins before the write (a read before it is durable finds nothing, as
 * it would without the index). Deleted keys stay: a stale entry costs one read, never a wrong answer.
 */
/** A UTF-16 surrogate: such a text may not survive a round trip through UTF-8 (a lone one does not). */
const SURROGATE = /[\uD800-\uDFFF]/

export class PresentKeys implements CommitHook {
  private readonly present = new Set<string>()
  private constructor (private readonly tags: Set<number>) {}

  static async open (state: StateDb, tags: string[]): Promise<PresentKeys> {
    const index = new PresentKeys(new Set(tags.map(t => t.charCodeAt(0))))
    // Watching first: a key written while the scan runs is seen by one or the other.
    state.committer.hooks.push(index)
    for (const tag of tags) for await (const [key] of scan(state.db, ...prefixRange(tag))) index.present.add(key.toString())
    return index
  }

  /**
   * False when the key whose text (stateId) is `id` is certainly absent from the store. Ids are compared as the
   * UTF-8 text of key bytes; a text with surrogates may have no such form (a lone one): read.
   */
  mayExist (id: string): boolean {
    return this.present.has(id) || SURROGATE.test(id)
  }

  beforeWrite (ops: readonly WriteOp[]): WriteOp[] {
    for (const op of ops) if (op.type === 'put' && op.column === undefined && this.tags.has(op.key[0]!)) this.present.add(op.key.toString())
    return []
  }

  afterWrite (): void {}
}
