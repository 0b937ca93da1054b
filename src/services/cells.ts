import { createHash } from 'node:crypto'

/** The header (REST) or metadata (gRPC) a forwarded request carries: the cell that forwarded it. It is never forwarded again. */
export const FORWARDED_HEADER = 'fds-forwarded-by-cell'

/**
 * Which of a cell's `count` instances a tenant's requests go to (docs/architecture.md#cells): always the same one
 * while it answers, so that a client reads its own writes through any instance. Pure.
 */
export function instanceOf (tenant: string, count: number): number {
  return createHash('sha256').update(tenant).digest().readUInt32BE(0) % Math.max(1, count)
}
