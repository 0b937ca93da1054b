import { describe, expect, it } from 'vitest'
import { itemsOf } from '../../src/domain/rules/list-items.js'

const list = (items: string[]) => ({ alias: 'deny_users', item_type: 'user_id' as const, items })

describe('a list with its item changes', () => {
  it('is the version\'s items when nothing changed since', () => {
    expect(itemsOf(list(['u1']), undefined)).toEqual(['u1'])
    expect(itemsOf(list(['u1']), new Map())).toEqual(['u1'])
  })

  it('adds items added since in order, once, and drops items removed since, the version\'s own included', () => {
    const changes = new Map([['u3', true], ['u1', false], ['u2', true], ['u4', false]])
    expect(itemsOf(list(['u1', 'u2']), changes)).toEqual(['u2', 'u3'])
    expect(itemsOf(list([]), changes)).toEqual(['u3', 'u2'])
  })
})
