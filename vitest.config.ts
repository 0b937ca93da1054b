import { defineConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/** The schemathesis run (a built service under generated load) goes last, beside as few other files as possible. */
class SchemathesisLast extends BaseSequencer {
  override async sort (files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const last = (file: TestSpecification): number => file.moduleId.includes('/test/schemathesis/') ? 1 : 0
    return sorted.sort((a, b) => last(a) - last(b))
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'topologies/**/*.test.ts', 'clients/*/test/**/*.test.ts'],
    globalSetup: ['test/support/temp-root.ts'],
    testTimeout: 60000,
    hookTimeout: 60000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
    sequence: { sequencer: SchemathesisLast }
  }
})
