import { createHash, randomFillSync } from 'node:crypto'

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz'

function base32 (bytes: Uint8Array): string {
  let out = ''
  for (const b of bytes) out += CROCKFORD[b & 31]
  return out
}

function timePart (ms: number): string {
  let out = ''
  for (let i = 0; i < 10; i++) { out = CROCKFORD[ms % 32] + out; ms = Math.floor(ms / 32) }
  return out
}

/** The smallest id of this prefix created at or after `ms`: ids sort by creation time, so time ranges are key ranges. */
export function idLowerBound (prefix: string, ms: number): string {
  return `${prefix}_${timePart(ms)}`
}

/**
 * Random bytes drawn from the CSPRNG in blocks, as crypto.randomUUID does: one call per 256 ids, not one each.
 * Every byte is handed out once.
 */
const POOL = Buffer.alloc(4096)
let drawn = POOL.length

function random16 (): Uint8Array {
  if (drawn === POOL.length) { randomFillSync(POOL); drawn = 0 }
  drawn += 16
  return POOL.subarray(drawn - 16, drawn)
}

/** `<prefix>_` + 10 time characters + 16 random ones: sortable by creation time, unguessable. */
export function newId (prefix: string, nowMs = Date.now()): string {
  return `${prefix}_${timePart(nowMs)}${base32(random16())}`
}

/** Like newId but derived from `parts` (same inputs, same id): for records a replay must not duplicate. */
export function stableId (prefix: string, ms: number, ...parts: string[]): string {
  return `${prefix}_${timePart(ms)}${base32(createHash('sha256').update(parts.join('\u0000')).digest().subarray(0, 16))}`
}
