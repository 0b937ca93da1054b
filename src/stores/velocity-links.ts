/**
 * Values linked to one value, each with the event time it was last seen: a distinct-count record (velocity.ts)
 * and a node of the async-scorer's link graph. As stored: a format byte, a u32 count, then per value a float64 time, a u32 byte
 * length and the value's UTF-8 bytes. Records of the first format were JSON objects (first byte `{`): read as
 * such and written back in this one.
 */
const FORMAT = 1
const JSON_OBJECT = 0x7b
const HEAD = 1 + 4
const PER_VALUE = 8 + 4

export type Links = Map<string, number>

export function encodeLinks (links: Links): Buffer {
  let size = HEAD
  for (const value of links.keys()) size += PER_VALUE + Buffer.byteLength(value)
  const out = Buffer.allocUnsafe(size)
  out[0] = FORMAT
  let at = out.writeUInt32LE(links.size, 1)
  for (const [value, seen] of links) {
    at = out.writeDoubleLE(seen, at)
    const length = out.write(value, at + 4)
    at = out.writeUInt32LE(length, at) + length
  }
  return out
}

export function decodeLinks (raw: Buffer | undefined): Links {
  const links: Links = new Map()
  if (raw === undefined) return links
  if (raw[0] === JSON_OBJECT) return new Map(Object.entries(JSON.parse(raw.toString()) as Record<string, number>))
  if (raw[0] !== FORMAT) throw new Error(`distinct-count record of an unknown format ${raw[0]}`)
  const n = raw.readUInt32LE(1)
  for (let k = 0, at = HEAD; k < n; k++) {
    const seen = raw.readDoubleLE(at)
    const length = raw.readUInt32LE(at + 8)
    at += PER_VALUE
    links.set(raw.toString('utf8', at, at + length), seen)
    at += length
  }
  return links
}

/** Keeps the `max` most recently seen values: links grow by one value at a time, so at most one goes. */
export function keepMostRecent (links: Links, max: number): void {
  if (links.size <= max) return
  let oldest: string | undefined
  let oldestSeen = Infinity
  for (const [value, seen] of links) if (seen < oldestSeen) { oldest = value; oldestSeen = seen }
  links.delete(oldest!)
}
