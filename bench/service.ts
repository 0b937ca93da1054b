/**
 * Starts a script of this repository (tsx) as a child process and waits for its listen address in its pino log.
 * BENCH_NODE_ARGS adds node flags to it, e.g. `--cpu-prof --cpu-prof-dir=/tmp/profiles` for a CPU profile.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { LabelNoise } from '../src/app/replay/replay-events.js'

const root = path.resolve(import.meta.dirname, '..')
const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(a => a !== '')

/** The operator's credential (METRICS_TOKEN) of the services started here: the whole /healthz report is shown to it. */
export const OPERATOR_TOKEN = 'bench-operator-token'
export const OPERATOR_AUTH = { authorization: `Bearer ${OPERATOR_TOKEN}` }

/** `extraNodeArgs`: node flags of this start only, after BENCH_NODE_ARGS. */
export function start (script: string, env: Record<string, string>, extraNodeArgs: string[] = []): Promise<{ child: ChildProcess, url: string }> {
  const child = spawn(process.execPath, [...nodeArgs, ...extraNodeArgs, '--import', 'tsx', path.join(root, script)], { cwd: root, env: { METRICS_PORT: '0', METRICS_TOKEN: OPERATOR_TOKEN, ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', d => {
      out += d
      const m = /"address":"(http:\/\/[^"]+)"/.exec(out)
      if (m !== null) resolve({ child, url: m[1]! })
    })
    child.once('exit', code => reject(new Error(`${script} exited ${code}: ${out}`)))
  })
}


/**
 * A fresh service for a detection replay: its own data directory, one key without rate limits, models published
 * every 2 s, and each decision recorded at its event time (RECORDED_TIME=event_time) so labels mature in the
 * replay's time.
 */
export function startReplayService (name: string, key: string): Promise<{ child: ChildProcess, url: string }> {
  return start('src/app/main.ts', {
    DATA_DIR: mkdtempSync(path.join(tmpdir(), `fds-${name}-`)), HOST: '127.0.0.1', PORT: '0', GRPC_PORT: '0', LOG_LEVEL: 'info',
    BOOTSTRAP_API_KEYS: key, RATE_LIMIT_PER_SECOND: '1000000', RATE_LIMIT_BURST: '1000000', MODEL_PUBLISH_INTERVAL_MS: '2000',
    RECORDED_TIME: 'event_time'
  })
}

/** A replay's report and its wall time (the replay alone, not the service's start), with the label noise it ran with. */
export interface ReplayRunResult<R> { report: R, seconds: number, noise?: LabelNoise }

/**
 * `replay` against a fresh service (startReplayService); with label noise twice, each on a fresh service of its
 * own, one after the other: first with clean labels, then with the noise.
 */
export async function replayCleanAndNoisy<R> (name: string, key: string, noise: LabelNoise | undefined, replay: (url: string, noise?: LabelNoise) => Promise<R>): Promise<Array<ReplayRunResult<R>>> {
  const results: Array<ReplayRunResult<R>> = []
  // LABEL_NOISE_ONLY=1: the noisy run alone, when the clean one of the same commit ran apart (in parallel, say)
  const runs = noise === undefined ? [undefined] : process.env.LABEL_NOISE_ONLY === '1' ? [noise] : [undefined, noise]
  for (const labelNoise of runs) {
    if (noise !== undefined) process.stderr.write(labelNoise === undefined ? 'the run with clean labels\n' : `the run with label noise ${labelNoise.share} (seed ${labelNoise.seed})\n`)
    const service = await startReplayService(name, key)
    const exited = new Promise(resolve => service.child.once('exit', resolve))
    try {
      const startedAt = Date.now()
      const report = await replay(service.url, labelNoise)
      results.push({ report, seconds: (Date.now() - startedAt) / 1000, ...(labelNoise === undefined ? {} : { noise: labelNoise }) })
    } finally {
      service.child.kill('SIGTERM')
    }
    if (labelNoise !== noise) await exited // the next run's service starts once this one is gone
  }
  return results
}
