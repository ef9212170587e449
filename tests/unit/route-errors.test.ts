// What a route did not answer itself (app/server/route-errors.server.ts): an error of PocketBase that
// reached no route code becomes a clear answer by its status, never Remix's 500.
import { describe, expect, it } from "vitest";
import { ClientResponseError } from "pocketbase";
import { answerUnexpected, FAILED_MESSAGE, REFUSED_MESSAGE } from "~/server/route-errors.server";
import { SESSION_ENDED_MESSAGE } from "~/lib/errors";

const args = { request: new Request("http://chat.example.test/api/threads"), context: {} };
const pbError = (status: number, message?: string) =>
  new ClientResponseError({ url: "http://127.0.0.1:8090/api/x", status, data: message ? { message, data: {} } : {} });
const answer = async (error: ClientResponseError) => {
  try {
    return await answerUnexpected(error, args);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
};
const read = async (response: Response) => ({ status: response.status, message: ((await response.json()) as { message: string }).message });

describe("an error of PocketBase no route caught", () => {
  it("a refusal keeps its 4xx with PocketBase's words, or a plain sentence", async () => {
    expect(await read(await answer(pbError(400, "Invalid filter.")))).toEqual({ status: 400, message: "Invalid filter." });
    expect(await read(await answer(pbError(404)))).toEqual({ status: 404, message: REFUSED_MESSAGE });
  });

  it("a failure of PocketBase is a 502, PocketBase away a 503, its disk full a 507", async () => {
    expect(await read(await answer(pbError(500, "Something went wrong while processing your request.")))).toEqual({
      status: 502,
      message: FAILED_MESSAGE,
    });
    expect((await answer(pbError(0))).status).toBe(503);
    expect((await answer(pbError(507))).status).toBe(507);
  });

  it("a refused token without a session of this server reads as a session that ended", async () => {
    expect(await read(await answer(pbError(401, "The request requires valid record authorization token.")))).toEqual({
      status: 401,
      message: SESSION_ENDED_MESSAGE,
    });
  });
});
