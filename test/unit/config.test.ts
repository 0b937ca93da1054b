import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/app/config.js'

describe('configuration from the environment', () => {
  it('keeps the heap near its live data by default, and lets V8 decide with 0', () => {
    expect(loadConfig({}).heapGrowingPercent).toBe(100)
    expect(loadConfig({ HEAP_GROWING_PERCENT: '0' }).heapGrowingPercent).toBe(0)
    expect(loadConfig({ HEAP_GROWING_PERCENT: '120' }).heapGrowingPercent).toBe(120)
  })

  it('refuses a value that is not a whole percentage in range, naming the variable', () => {
    for (const bad of ['-1', '1.5', 'lots', '1001']) expect(() => loadConfig({ HEAP_GROWING_PERCENT: bad })).toThrow(/HEAP_GROWING_PERCENT must be an integer from 0 to 1000/)
  })

  it('holds 30,000 velocity records in memory unless told otherwise', () => {
    expect(loadConfig({}).velocityCacheRecords).toBe(30_000)
    expect(loadConfig({ VELOCITY_CACHE_RECORDS: '250000' }).velocityCacheRecords).toBe(250_000)
    expect(() => loadConfig({ VELOCITY_CACHE_RECORDS: '10' })).toThrow(/VELOCITY_CACHE_RECORDS must be an integer/)
  })
})
