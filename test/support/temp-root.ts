import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

/**
 * vitest's global setup: every temporary directory of the run (each test's data directory, the services and
 * browsers it starts) goes under one directory of the run's own, through TMPDIR, which the test workers and their
 * child processes inherit; the teardown removes it. Without it, every run left its data directories behind, and on
 * a machine that runs the suite often they filled the disk.
 */
export default function setup (): () => void {
  const previous = process.env.TMPDIR
  const root = mkdtempSync(path.join(tmpdir(), 'fds-test-run-'))
  process.env.TMPDIR = root
  return () => {
    if (previous === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = previous
    rmSync(root, { recursive: true, force: true })
  }
}
