import { mkdirSync, readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { topologyThreadFor } from '../../src/app/topology-placement.js'
import { tempDir } from '../support/app.js'

describe('where a data directory runs its topologies', () => {
  it('records the place a new directory starts with, and keeps it under auto', () => {
    const dataDir = tempDir()
    expect(topologyThreadFor({ dataDir, topologyThread: 'worker' })).toBe('worker')
    expect(readFileSync(path.join(dataDir, 'topology-thread'), 'utf8')).toBe('worker')
    expect(topologyThreadFor({ dataDir, topologyThread: 'auto' })).toBe('worker')
  })

  it('refuses a setting that would leave the topology state behind', () => {
    const dataDir = tempDir()
    topologyThreadFor({ dataDir, topologyThread: 'main' })
    expect(() => topologyThreadFor({ dataDir, topologyThread: 'worker' })).toThrow(/keeps its topology state for the main thread/)
  })

  it('keeps a directory from before the worker on the main thread, where its topology state is', () => {
    const dataDir = tempDir()
    mkdirSync(path.join(dataDir, 'state'))
    expect(topologyThreadFor({ dataDir, topologyThread: 'auto' })).toBe('main')
    expect(() => topologyThreadFor({ dataDir, topologyThread: 'worker' })).toThrow()
  })

  it('chooses by the cores under auto for a new directory', () => {
    expect(topologyThreadFor({ dataDir: tempDir(), topologyThread: 'auto' })).toBe(availableParallelism() >= 4 ? 'worker' : 'main')
  })
})
