import { isStorageFault } from '../stores/storage-fault.js'
import { faultSummary } from '../stores/storage-health.js'
import { ApiError } from './errors.js'

/** Retry-After (seconds) of a 503 storage_unavailable: about how long the store takes to recover once it can. */
export const STORAGE_RETRY_AFTER_S = 5

/** 503 storage_unavailable for a write the local store could not make: nothing of the request was recorded. */
export function storageUnavailable (err: unknown): ApiError {
  return new ApiError('storage_unavailable', `The service cannot write to its local storage (${faultSummary(err)}); the request was not recorded. Retry after the Retry-After delay, with the same Idempotency-Key.`, undefined, undefined, STORAGE_RETRY_AFTER_S)
}

/** `err` as the API answers it when it is a storage fault; otherwise `err` itself. */
export function withStorageFaults (err: unknown): unknown {
  return !(err instanceof ApiError) && isStorageFault(err) ? storageUnavailable(err) : err
}
