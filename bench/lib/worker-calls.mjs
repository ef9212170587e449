// Calls to a worker thread of the bench (bench/lib/verifier.mjs, bench/lib/poster.mjs): each message
// carries an id, and the worker's reply with that id ({ id, error } or the result) settles the call.
import { Worker } from "node:worker_threads";

export class WorkerCalls {
  /** `url`: the worker's module; `toResult(reply)`: what a call resolves with. */
  constructor(url, options, toResult) {
    this.worker = new Worker(url, options);
    this.pending = new Map();
    this.next = 0;
    this.worker.on("message", (reply) => {
      const waiter = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (reply.error !== undefined) waiter?.reject(new Error(reply.error));
      else waiter?.resolve(toResult(reply));
    });
    this.worker.on("error", (error) => {
      for (const waiter of this.pending.values()) waiter.reject(error);
      this.pending.clear();
    });
    this.worker.unref();
  }

  /** Sends `message` with a new id; resolves with the worker's reply to it. */
  call(message) {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...message, id });
    });
  }

  close() {
    return this.worker.terminate();
  }
}
