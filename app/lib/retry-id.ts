import { randomUuid } from "~/crypto";

/**
 * The id of a create or send that may be asked again after its answer was lost (ADR 0094): the same id
 * while the same request (`asked`, its content) is asked again, so that the server stores it once; a new
 * one for other content, or once an answer came (`answered`).
 */
export class RetryId {
  private last: { asked: string; id: string } | null = null;

  for(asked: string): string {
    if (this.last?.asked !== asked) this.last = { asked, id: randomUuid() };
    return this.last.id;
  }

  answered() {
    this.last = null;
  }
}
