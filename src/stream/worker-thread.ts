import { Worker } from 'node:worker_threads'

/**
 * A worker thread running the module `script` names relative to `base` (the caller's import.meta.url), without
 * its extension: built, the .js file; from source (tests, benchmarks run through tsx), the .ts file with tsx's
 * loader registered in the worker first (loaders are per thread).
 */
export function workerFor (base: string, script: string, workerData: unknown, transferList: ArrayBuffer[] = []): Worker {
  if (!base.endsWith('.ts')) return new Worker(new URL(`${script}.js`, base), { workerData, transferList })
  const source = new URL(`${script}.ts`, base).href
  return new Worker(`import('tsx/esm/api').then(tsx => { tsx.register(); return import(${JSON.stringify(source)}) })`, { eval: true, workerData, transferList })
}
