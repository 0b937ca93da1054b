import { BlockList } from 'node:net'
import { describe, expect, it } from 'vitest'
import { compileList } from '../../src/domain/rules/lists.js'

describe('IP lists', () => {
  it('match addresses and CIDR ranges exactly as a BlockList of the same items does', () => {
    const items = ['10.0.0.1', '192.168.0.0/16', '172.16.5.0/24', '8.8.8.8/32', '100.64.0.0/10', '0.0.0.0/0']
    const probes = ['10.0.0.1', '10.0.0.2', '192.168.255.254', '192.169.0.0', '172.16.5.200', '172.16.6.1', '8.8.8.8', '8.8.4.4', '100.127.255.255', '100.128.0.0', '255.255.255.255', 'not an ip', '::1']
    for (const list of [items.slice(0, 5), items, ['2001:db8::/32', '10.0.0.0/8']]) {
      const reference = new BlockList()
      for (const item of list) {
        const [address, bits] = item.split('/')
        const family = address!.includes(':') ? 'ipv6' : 'ipv4'
        if (bits === undefined) reference.addAddress(address!, family)
        else reference.addSubnet(address!, Number(bits), family)
      }
      const matcher = compileList({ alias: 'ips', item_type: 'ip', items: list })
      for (const probe of [...probes, '2001:db8::5', '::ffff:10.0.0.1']) {
        const family = probe.includes(':') ? 'ipv6' : 'ipv4'
        const expected = /^[0-9a-f:.]+$/.test(probe) && (probe.includes(':') || probe.split('.').length === 4) ? reference.check(probe, family) : false
        expect(matcher.has(probe), `${probe} in ${list.join(' ')}`).toBe(expected)
      }
    }
  })
})
