// The senders' requests on a thread of their own (`Poster`), as a sending page has its own thread:
// the latency phase times a POST where its answer arrives, not after the other pages' events that
// the bench's thread parses in the meantime, and those pages' events do not wait behind the answer
// (bench/lib/delivery.mjs, bench/lib/baseline.mjs). The same for the raw creates and the web's POSTs.
import { Worker } from "node:worker_threads";

export class Poster {
  constructor() {
    this.worker = new Worker(new URL("./poster-worker.mjs", import.meta.url));
    this.pending = new Map();
    this.next = 0;
    this.worker.on("message", ({ id, result, error }) => {
      const waiter = this.pending.get(id);
      this.pending.delete(id);
      if (error !== undefined) waiter?.reject(new Error(error));
      else waiter?.resolve(result);
    });
    this.worker.on("error", (error) => {
      for (const waiter of this.pending.values()) waiter.reject(error);
      this.pending.clear();
    });
    this.worker.unref();
  }

  /**
   * One request (bench/lib/http.mjs `request`) made on the sender's thread; resolves with
   * { status, headers, text, ms }, `ms` the request's own time as that thread measured it.
   */
  request(url, options) {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, url, options });
    });
  }

  close() {
    return this.worker.terminate();
  }
}
