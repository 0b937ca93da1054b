import { BlockList, isIP } from 'node:net'
import type { ValueList } from '../decision/types.js'
import { canonicalValue } from './canonical.js'

/** Membership test of one list, built once per ruleset version. */
export interface ListMatcher { has(value: string): boolean }

/** Items and values compare in their canonical form (canonical.ts); IP lists match addresses and CIDR ranges. */
export function compileList (list: ValueList): ListMatcher {
  const normalize = (v: string) => canonicalValue(list.item_type, v)
  if (list.item_type !== 'ip') {
    const exact = new Set(list.items.map(normalize))
    return { has: value => exact.has(normalize(value)) }
  }
  const ranges = new BlockList()
  // IPv4 items also as (network, mask) pairs: an IPv4 address is checked by arithmetic, not through a
  // BlockList (which makes a SocketAddress per check), unless an IPv6 item could match it (mapped addresses).
  const v4: Array<[number, number]> = []
  let v6Items = false
  for (const item of list.items) {
    const [address, bits] = normalize(item).split('/')
    const family = isIP(address ?? '')
    if (family === 0) continue
    if (bits === undefined) ranges.addAddress(address!, family === 6 ? 'ipv6' : 'ipv4')
    else ranges.addSubnet(address!, Number(bits), family === 6 ? 'ipv6' : 'ipv4')
    if (family === 6) { v6Items = true; continue }
    const mask = bits === undefined || Number(bits) >= 32 ? 0xffffffff : Number(bits) === 0 ? 0 : (0xffffffff << (32 - Number(bits))) >>> 0
    v4.push([(ipv4Number(address!) & mask) >>> 0, mask])
  }
  return {
    has: raw => {
      const value = normalize(raw)
      const family = isIP(value)
      if (family === 4 && !v6Items) {
        const n = ipv4Number(value)
        return v4.some(([network, mask]) => ((n & mask) >>> 0) === network)
      }
      return family !== 0 && ranges.check(value, family === 6 ? 'ipv6' : 'ipv4')
    }
  }
}

/** A dotted-quad IPv4 address (isIP said so) as an unsigned 32-bit number. */
function ipv4Number (address: string): number {
  let n = 0
  for (const part of address.split('.')) n = n * 256 + Number(part)
  return n
}

/** Valid item for the list type, or the reason it is not. */
export function invalidListItem (list: Pick<ValueList, 'item_type'>, raw: string): string | undefined {
  if (raw.length === 0 || raw.length > 256) return 'must be 1 to 256 characters'
  const item = canonicalValue(list.item_type, raw)
  if (item.length === 0) return 'must hold a visible character'
  if (list.item_type === 'ip') {
    const [address, bits, extra] = item.split('/')
    const family = isIP(address ?? '')
    if (family === 0 || extra !== undefined) return 'must be an IPv4/IPv6 address or CIDR range'
    if (bits !== undefined && !(/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32))) return 'has an invalid prefix length'
  }
  if (list.item_type === 'country' && !/^[A-Za-z]{2}$/.test(item)) return 'must be an ISO 3166-1 alpha-2 country code'
  return undefined
}
