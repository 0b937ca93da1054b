import type { StateDb } from './state-db.js'

const BATCH = 100

/**
 * The stored values of the keys given, in their order, read a hundred at a time (one multi-get each, not one read
 * per key); a key with nothing stored (erased meanwhile) is passed over.
 */
export async function * storedValues (state: Pick<StateDb, 'getMany'>, keys: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let batch: Buffer[] = []
  const read = async function * () {
    const raw = await state.getMany(batch)
    batch = []
    for (const r of raw) if (r !== undefined) yield r
  }
  for await (const key of keys) {
    batch.push(key)
    if (batch.length === BATCH) yield * read()
  }
  if (batch.length > 0) yield * read()
}
