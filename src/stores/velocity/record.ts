import { emptySlots, firstsInReach, readSlots, slotsSize, writeSlots, type Slots } from './slots.js'
import { linksSize, readLinks, writeLinks, type Links } from './links.js'

/**
 * Everything velocity keeps about one dimension value (index.ts): its counters and, per other dimension
 * a distinct need counts, the values it was seen with (undefined: none yet). One record, so a request reads
 * one key per value.
 */
export interface VelocityRecord { counters: Slots, links: Map<string, Links> | undefined }

/**
 * As stored: a format byte, the counters (slots.ts), then with format 3 a u16 count of link sets and
 * per set a u8 byte length and the other dimension's name, then its links (links.ts). A record with
 * no links is written in format 2 (the counters alone), which is also what stores kept before links moved in.
 */
const COUNTERS = 2
const NONE: Map<string, Links> = new Map()
const WITH_LINKS = 3

export function encodeRecord (r: VelocityRecord): Buffer {
  const sets = r.links ?? NONE
  const firsts = firstsInReach(r.counters)
  let size = 1 + slotsSize(r.counters, firsts)
  if (sets.size > 0) {
    size += 2
    for (const [of, links] of sets) size += 1 + Buffer.byteLength(of) + linksSize(links)
  }
  const out = Buffer.allocUnsafe(size)
  out[0] = sets.size > 0 ? WITH_LINKS : COUNTERS
  let at = writeSlots(r.counters, firsts, out, 1)
  if (sets.size === 0) return out
  at = out.writeUInt16LE(sets.size, at)
  for (const [of, links] of sets) {
    const length = out.write(of, at + 1)
    at = writeLinks(links, out, out.writeUInt8(length, at) + length)
  }
  return out
}

export function decodeRecord (raw: Buffer | undefined): VelocityRecord {
  if (raw === undefined) return { counters: emptySlots(), links: undefined }
  if (raw[0] !== COUNTERS && raw[0] !== WITH_LINKS) throw new Error(`velocity record of an unknown format ${raw[0]}`)
  const [counters, end] = readSlots(raw, 1)
  if (raw[0] === COUNTERS) return { counters, links: undefined }
  const links = new Map<string, Links>()
  const sets = raw.readUInt16LE(end)
  for (let k = 0, at = end + 2; k < sets; k++) {
    const length = raw.readUInt8(at)
    const of = raw.toString('utf8', at + 1, at + 1 + length)
    const [read, next] = readLinks(raw, at + 1 + length)
    links.set(of, read)
    at = next
  }
  return { counters, links }
}
