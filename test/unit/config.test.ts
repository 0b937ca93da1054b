import { describe, expect, it } from 'vitest'
import { loadConfig, requireCellUrls } from '../../src/app/config.js'

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

  it('reads cells: this one, how many, and where each other one answers; refuses a cell it cannot reach', () => {
    expect(loadConfig({})).toMatchObject({ cell: 0, cells: 1 })
    const two = loadConfig({ TRANSPORT: 'kafka', CELLS: '2', CELL: '1', CELL_URLS: '0=http://cell-0-a:8080|http://cell-0-b:8080/', CELL_GRPC_URLS: '0=cell-0-a:50051' })
    expect(two).toMatchObject({ cell: 1, cells: 2 })
    expect(two.cellUrls.get(0)).toEqual(['http://cell-0-a:8080', 'http://cell-0-b:8080'])
    expect(() => requireCellUrls(loadConfig({ TRANSPORT: 'kafka', CELLS: '2', CELL: '0' }))).toThrow(/no URL for cell 1/)
    expect(() => requireCellUrls(two)).not.toThrow()
    expect(two.cellGrpcUrls.get(0)).toEqual(['cell-0-a:50051'])
    expect(() => requireCellUrls(loadConfig({ TRANSPORT: 'kafka', CELLS: '2', CELL: '1', CELL_URLS: '0=http://a:1' }))).toThrow(/CELL_GRPC_URLS: no gRPC address for cell 0/)
    expect(() => requireCellUrls(loadConfig({ TRANSPORT: 'kafka', CELLS: '2', CELL: '1', CELL_URLS: '0=http://a:1', GRPC_PORT: '' }))).not.toThrow()
    expect(() => loadConfig({ TRANSPORT: 'kafka', CELLS: '2', CELL_GRPC_URLS: '1=http://x:1' })).toThrow(/not host:port/)
    expect(() => loadConfig({ TRANSPORT: 'kafka', CELLS: '2', CELL: '2' })).toThrow(/CELL must be an integer from 0 to 1/)
    expect(() => loadConfig({ TRANSPORT: 'kafka', CELLS: '2', CELL_URLS: '1=cell-1:8080' })).toThrow(/not a base URL/)
    expect(() => loadConfig({ TRANSPORT: 'kafka', CELLS: '2', CELL_URLS: '3=http://x:1' })).toThrow(/for a cell from 0 to 1/)
    expect(() => loadConfig({ CELLS: '2', CELL_URLS: '1=http://x:1' })).toThrow(/needs TRANSPORT=kafka/)
  })
})
