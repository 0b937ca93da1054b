/**
 * Velocity by event time, keyed by tenant, mode, dimension and value (domain/features/velocity-spec.ts): one
 * record per dimension value (record.ts) holding its counters, minute, hour and day slots (slots.ts), and for
 * each other dimension a distinct need counts, that dimension's values with their last-seen time, the 256 most
 * recent kept (links.ts). A request reads one record per dimension value it names (read-plan.ts). Links for
 * another dimension that no need reads any longer (its rule was removed) stay in the records that hold them,
 * read and written with them, and count again if a need for them comes back.
 *
 * Records live in a write-back cache (write-back-cache.ts): an increment (increment.ts) is applied to the
 * cached record synchronously (so a request sees every increment of the requests answered before it) and the
 * caller's durable write gets a small journal entry saying what was incremented, not the records (journal.ts).
 * The dirty records are written with a later group commit, together with the deletion of the journal entries
 * they cover, in one atomic write. After a crash, `VelocityStore.open` (store.ts) re-applies the journal
 * entries left, so the counts equal those of a run without the crash (Kafka Streams' caching store with its
 * changelog, the journal playing the changelog); records of earlier layouts are upgraded first
 * (record-upgrade.ts). Features describe the history before the event: a view (view.ts) reads them before
 * its increments.
 *
 * Another instance's decision, materialized, reads nothing: its increments go to the records the cache holds
 * and, for the others, are merged into the store unread, the event itself appended to each record it changes
 * in the materializer's own durable write (the column's merge operator appends; a read adds them up,
 * stored.ts). A read that finds merges has the record written whole with the next flush, and one
 * materialized increment in FOLD_EVERY reads and rewrites its record instead, so no value keeps many merges.
 */
export { VelocityStore } from './store.js'
export type { VelocityOptions } from './write-back-cache.js'
export { VelocityView } from './view.js'
export { decodeLinks, encodeLinks, seen, type Links } from './links.js'
