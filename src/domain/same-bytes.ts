import { timingSafeEqual } from 'node:crypto'

/** Whether two secrets (tokens, signatures) are equal, in time that does not depend on where they differ. */
export const sameBytes = (a: Buffer, b: Buffer): boolean => a.length === b.length && timingSafeEqual(a, b)
