import { BlockList, isIP } from 'node:net'
import type { ValueList } from '../decision/types.js'

/** Membership test of one list, built once per ruleset version. */
export interface ListMatcher { has(value: string): boolean }

/** Lowercases what compares case-insensitively (emails, countries); IP lists match addresses and CIDR ranges. */
export function compileList (list: ValueList): ListMatcher {
  const normalize = list.item_type === 'email' || list.item_type === 'country' ? (v: string) => v.toLowerCase() : (v: string) => v
  const exact = new Set(list.items.map(normalize))
  if (list.item_type !== 'ip') return { has: value => exact.has(normalize(value)) }
  const ranges = new BlockList()
  for (const item of list.items) {
    const [address, bits] = item.split('/')
    const family = isIP(address ?? '')
    if (family === 0) continue
    if (bits === undefined) ranges.addAddress(address!, family === 6 ? 'ipv6' : 'ipv4')
    else ranges.addSubnet(address!, Number(bits), family === 6 ? 'ipv6' : 'ipv4')
  }
  return {
    has: value => {
      const family = isIP(value)
      return family !== 0 && ranges.check(value, family === 6 ? 'ipv6' : 'ipv4')
    }
  }
}

/** Valid item for the list type, or the reason it is not. */
export function invalidListItem (list: Pick<ValueList, 'item_type'>, item: string): string | undefined {
  if (item.length === 0 || item.length > 256) return 'must be 1 to 256 characters'
  if (list.item_type === 'ip') {
    const [address, bits, extra] = item.split('/')
    const family = isIP(address ?? '')
    if (family === 0 || extra !== undefined) return 'must be an IPv4/IPv6 address or CIDR range'
    if (bits !== undefined && !(/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32))) return 'has an invalid prefix length'
  }
  if (list.item_type === 'country' && !/^[A-Za-z]{2}$/.test(item)) return 'must be an ISO 3166-1 alpha-2 country code'
  return undefined
}
