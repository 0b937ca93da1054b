import type { Forest, TrainOptions, TrainingSet } from '../../src/domain/model/gbdt.js'
import { workerFor } from '../../src/stream/worker-thread.js'

/**
 * Trains gradient-boosted trees off the calling thread: each call starts a worker thread for one training
 * (seconds of CPU on tens of thousands of rows), moves the training set's arrays to it, and ends it after.
 */
export function trainInWorker (set: TrainingSet, options: TrainOptions): Promise<Forest> {
  const buffers = [...set.columns, set.labels, set.weights].map(a => a.buffer as ArrayBuffer)
  const worker = workerFor(import.meta.url, './model-training-worker', { set, options }, buffers)
  return new Promise<Forest>((resolve, reject) => {
    worker.once('message', (forest: Forest) => { resolve(forest); void worker.terminate() })
    worker.once('error', reject)
    worker.once('exit', code => reject(new Error(`model training worker exited with code ${code}`)))
  })
}
