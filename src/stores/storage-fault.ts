/**
 * A write the local store (RocksDB) could not make: the disk is full, an I/O error, or the store stopped
 * writing after one (RocksDB refuses every write until its own recovery has run). It says nothing about what
 * was written: the same write may succeed later, so it is retried or answered 503, never dead-lettered.
 */
export class StorageUnavailable extends Error {
  constructor (readonly store: string, cause: unknown) {
    // Without the directories of the files RocksDB names (the message reaches /healthz); the cause keeps them.
    super(`${store}: ${((cause as Error)?.message ?? String(cause)).replace(/(?:[A-Za-z]:)?[\\/][^\s:]*[\\/]/g, '')}`, { cause })
    this.name = 'StorageUnavailable'
  }
}

/** What RocksDB (through the binding) says when a write fails for the disk's sake, not the data's. */
const STORE_FAULT = /No space left on device|ENOSPC|\bIO error: /

/**
 * True when `err` (or an error it was caused by) is a fault of the local store: a StorageUnavailable, the
 * binding's LEVEL_IO_ERROR, or a message naming a full disk or an I/O error (an error carried across a thread
 * keeps only its message).
 */
export function isStorageFault (err: unknown): boolean {
  for (let e = err, depth = 0; e !== undefined && e !== null && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof StorageUnavailable) return true
    if ((e as { code?: unknown }).code === 'LEVEL_IO_ERROR' || (e as { code?: unknown }).code === 'ENOSPC') return true
    if (typeof (e as Error).message === 'string' && STORE_FAULT.test((e as Error).message)) return true
  }
  return false
}

/** True when the fault is a full disk (then giving the store room lets it recover). */
export function isOutOfSpace (err: unknown): boolean {
  for (let e = err, depth = 0; e !== undefined && e !== null && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === 'ENOSPC') return true
    if (typeof (e as Error).message === 'string' && /No space left on device|ENOSPC/i.test((e as Error).message)) return true
  }
  return false
}
