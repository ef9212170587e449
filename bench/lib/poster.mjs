// The senders' requests on a thread of their own (`Poster`), as a sending page has its own thread:
// the latency phase times a POST where its answer arrives, not after the other pages' events that
// the bench's thread parses in the meantime, and those pages' events do not wait behind the answer
// (bench/lib/delivery.mjs, bench/lib/baseline.mjs). The same for the raw creates and the web's POSTs.
import { WorkerCalls } from "./worker-calls.mjs";

export class Poster {
  constructor() {
    this.calls = new WorkerCalls(new URL("./poster-worker.mjs", import.meta.url), {}, (reply) => reply.result);
  }

  /**
   * One request (bench/lib/http.mjs `request`) made on the sender's thread; resolves with
   * { status, headers, text, ms }, `ms` the request's own time as that thread measured it.
   */
  request(url, options) {
    return this.calls.call({ url, options });
  }

  close() {
    return this.calls.close();
  }
}
