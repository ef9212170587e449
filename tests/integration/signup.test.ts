import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { proxyHeaders } from "../../scripts/lib/pocketbase.mjs";
import { client, post, postJson, signupBody, signUpUser, startPocketBase, superuserClient, type RunningPocketBase } from "./pocketbase";

const SIGNUP = "/api/chat/signup";

let server: RunningPocketBase;

beforeAll(async () => {
  server = await startPocketBase();
});

afterAll(async () => {
  await server?.stop();
});

function expectJsonError(res: { status: number; json: unknown; text: string }, status: number, message?: string) {
  expect(res.status, res.text).toBe(status);
  const body = res.json as { message?: unknown };
  expect(typeof body?.message, res.text).toBe("string");
  if (message !== undefined) {
    expect(body.message).toBe(message);
  }
}

describe("POST /api/chat/signup", () => {
  it("creates the account and the profile and answers like a password sign-in", async () => {
    const body = signupBody();
    const res = await postJson(server.url, SIGNUP, body);

    expect(res.status, res.text).toBe(200);
    const { token, record } = res.json as { token: string; record: Record<string, unknown> };
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(record).toMatchObject({
      id: body.id,
      collectionName: "users",
      // the address waits for its emailed link (signup-pending.test.ts)
      email: "",
      pending_email: body.email,
      verified: false,
      encrypted_ecdh_private_key: body.encrypted_ecdh_private_key,
      encrypted_rsa_private_key: body.encrypted_rsa_private_key,
      kdf_iterations: 600_000,
      email_notifications_enabled: false,
      email_include_content: false,
      encrypted_settings: "",
    });
    expect(record).not.toHaveProperty("password");
    expect(record).not.toHaveProperty("tokenKey");
    expect(res.text).not.toContain(body.password);

    // the token works and the profile has the same id
    const pb = client(server.url);
    pb.authStore.save(token, record as never);
    const profile = await pb.collection("profiles").getOne(body.id);
    expect(profile).toMatchObject({
      id: body.id,
      username: body.username,
      ecdh_public_key: body.ecdh_public_key,
      rsa_public_key: body.rsa_public_key,
    });
  });

  it("lets the user sign in with the same email and login secret", async () => {
    const user = await signUpUser(server.url);

    const pb = client(server.url);
    const auth = await pb.collection("users").authWithPassword(user.email, user.password);
    expect(auth.record.id).toBe(user.id);

    // emails are matched regardless of case
    const again = client(server.url);
    await again.collection("users").authWithPassword(user.email.toUpperCase(), user.password);
    expect(again.authStore.record?.id).toBe(user.id);

    await expect(client(server.url).collection("users").authWithPassword(user.email, "x".repeat(43))).rejects.toMatchObject({
      status: 400,
    });
  });

  it("stores the email in lower case", async () => {
    const body = signupBody();
    const res = await postJson(server.url, SIGNUP, { ...body, email: `  ${body.email.toUpperCase()} ` });
    expect(res.status, res.text).toBe(200);
    expect((res.json as { record: { pending_email: string } }).record.pending_email).toBe(body.email);
  });

  it("refuses a username that is already taken, in any case", async () => {
    const user = await signUpUser(server.url);
    const swapped = user.username.replace(/[a-z]/g, (c) => c.toUpperCase());
    expect(swapped).not.toBe(user.username);
    const res = await postJson(server.url, SIGNUP, signupBody({ username: swapped }));
    expectJsonError(res, 400, "This username is already taken.");
  });

  it("refuses an id that is already in use", async () => {
    const user = await signUpUser(server.url);
    const res = await postJson(server.url, SIGNUP, signupBody({ id: user.id }));
    expectJsonError(res, 400, "An account with this ID already exists.");
  });

  it.each([
    ["too short", "ab"],
    ["too long", "a".repeat(33)],
    ["with a space", "john doe"],
    ["with an @", "john@doe"],
    ["with non-ASCII letters", "jöhn"],
    ["empty", ""],
  ])("refuses a username %s", async (_label, username) => {
    const res = await postJson(server.url, SIGNUP, signupBody({ username }));
    expectJsonError(res, 400, "Username must be 3-32 characters: letters, digits, dot, dash or underscore.");
  });

  it("accepts the allowed username characters", async () => {
    const body = signupBody();
    const username = `A.b-c_${body.id.slice(0, 8)}`;
    const res = await postJson(server.url, SIGNUP, { ...body, username });
    expect(res.status, res.text).toBe(200);
  });

  it.each([
    ["without @", "john.example.test"],
    ["without a domain dot", "john@example"],
    ["with spaces inside", "jo hn@example.test"],
    ["empty", ""],
    ["too long", `${"a".repeat(250)}@example.test`],
  ])("refuses an email %s", async (_label, email) => {
    const res = await postJson(server.url, SIGNUP, signupBody({ email }));
    expectJsonError(res, 400, "Please enter a valid email address.");
  });

  it.each([
    ["upper case", "ABCDEFGHIJKLMNO"],
    ["too short", "abc"],
    ["too long", "abcdefghijklmnop"],
    ["with a dash", "abcdefg-ijklmno"],
  ])("refuses an id in %s", async (_label, id) => {
    const res = await postJson(server.url, SIGNUP, signupBody({ id }));
    expectJsonError(res, 400, "User ID must be 15 lowercase letters or digits.");
  });

  it("refuses a login secret shorter than 8 or longer than 71 characters", async () => {
    expectJsonError(await postJson(server.url, SIGNUP, signupBody({ password: "short" })), 400, "Password must be 8 to 71 characters.");
    expectJsonError(
      await postJson(server.url, SIGNUP, signupBody({ password: "p".repeat(72) })),
      400,
      "Password must be 8 to 71 characters.",
    );
  });

  it("refuses KDF iteration counts below 100000 or not whole", async () => {
    expectJsonError(
      await postJson(server.url, SIGNUP, signupBody({ kdf_iterations: 1000 })),
      400,
      "Invalid kdf_iterations: Must be greater or equal than 100000.",
    );
    expectJsonError(
      await postJson(server.url, SIGNUP, signupBody({ kdf_iterations: 600000.5 })),
      400,
      "kdf_iterations must be a whole number.",
    );
    expectJsonError(
      await postJson(server.url, SIGNUP, { ...signupBody(), kdf_iterations: "600000" }),
      400,
      "kdf_iterations must be a whole number.",
    );
  });

  it("rolls the account back when the profile cannot be saved", async () => {
    const body = signupBody();
    // the account record is valid; the profile's public key exceeds its 1000-character limit
    const res = await postJson(server.url, SIGNUP, { ...body, ecdh_public_key: "k".repeat(1001) });
    expectJsonError(res, 400, "Invalid ecdh_public_key: Must be no more than 1000 character(s).");
    // the message is the whole answer: no per-field texts that a client might show instead
    expect((res.json as { data: unknown }).data).toEqual({});

    const admin = await superuserClient(server.url, server.superuser);
    await expect(admin.collection("users").getOne(body.id)).rejects.toMatchObject({ status: 404 });
    await expect(admin.collection("profiles").getOne(body.id)).rejects.toMatchObject({ status: 404 });

    // nothing was left behind: the same email, username and id can sign up
    const retry = await postJson(server.url, SIGNUP, body);
    expect(retry.status, retry.text).toBe(200);
  });

  it("refuses wrapped private keys over 8000 characters", async () => {
    const res = await postJson(server.url, SIGNUP, signupBody({ encrypted_rsa_private_key: "w".repeat(8001) }));
    expectJsonError(res, 400, "Invalid encrypted_rsa_private_key: Must be no more than 8000 character(s).");
  });

  describe("malformed bodies get a 4xx JSON message, never a 5xx", () => {
    const valid = () => signupBody() as unknown as Record<string, unknown>;
    const without = (field: string) => {
      const body = valid();
      delete body[field];
      return body;
    };

    const cases: Array<[string, string | undefined, string | null | undefined]> = [
      ["not JSON", "this is not json", undefined],
      ["truncated JSON", '{"id": "abc', undefined],
      ["a JSON array", JSON.stringify([valid()]), undefined],
      ["a JSON string", JSON.stringify("hello"), undefined],
      ["a JSON number", "42", undefined],
      ["JSON null", "null", undefined],
      ["an empty body", undefined, undefined],
      ["an empty object", "{}", undefined],
      ["form data content type", "id=abc&email=a@b.c", "application/x-www-form-urlencoded"],
      ["text/plain content type", JSON.stringify(valid()), "text/plain"],
      ["no content type", JSON.stringify(valid()), null],
      ["email as a number", JSON.stringify({ ...valid(), email: 12345 }), undefined],
      ["username as an object", JSON.stringify({ ...valid(), username: { $ne: "" } }), undefined],
      ["password as an array", JSON.stringify({ ...valid(), password: ["a", "b"] }), undefined],
      ["id as null", JSON.stringify({ ...valid(), id: null }), undefined],
      ["public key as a boolean", JSON.stringify({ ...valid(), ecdh_public_key: true }), undefined],
      ["kdf_iterations as an object", JSON.stringify({ ...valid(), kdf_iterations: { n: 1 } }), undefined],
      ["missing id", JSON.stringify(without("id")), undefined],
      ["missing email", JSON.stringify(without("email")), undefined],
      ["missing password", JSON.stringify(without("password")), undefined],
      ["missing username", JSON.stringify(without("username")), undefined],
      ["missing rsa_public_key", JSON.stringify(without("rsa_public_key")), undefined],
      ["missing encrypted_ecdh_private_key", JSON.stringify(without("encrypted_ecdh_private_key")), undefined],
      ["missing kdf_iterations", JSON.stringify(without("kdf_iterations")), undefined],
      ["a 100 KB username", JSON.stringify({ ...valid(), username: "u".repeat(100_000) }), undefined],
      ["a 1 MB public key", JSON.stringify({ ...valid(), rsa_public_key: "k".repeat(1_000_000) }), undefined],
      ["an empty public key", JSON.stringify({ ...valid(), rsa_public_key: "" }), undefined],
    ];

    it.each(cases)("%s", async (_label, body, contentType) => {
      const res = await post(server.url, SIGNUP, body, { contentType });
      expect(res.status, res.text).toBeGreaterThanOrEqual(400);
      expect(res.status, res.text).toBeLessThan(500);
      expect(res.contentType).toContain("application/json");
      expect(typeof (res.json as { message?: unknown })?.message).toBe("string");
    });

    it("names the missing field", async () => {
      expectJsonError(await postJson(server.url, SIGNUP, without("rsa_public_key")), 400, "rsa_public_key must be a non-empty string.");
      expectJsonError(await post(server.url, SIGNUP, "[]"), 400, "Request body must be a JSON object.");
    });
  });

  it("is rate limited per client address", async () => {
    const admin = await superuserClient(server.url, server.superuser);
    await admin.settings.update({ rateLimits: { excludedIPs: [] } });
    try {
      const statuses: number[] = [];
      // 10 a minute (an office's newcomers signing up together: docs/decisions/0058, addendum)
      for (let i = 0; i < 11; i++) {
        statuses.push((await postJson(server.url, SIGNUP, {})).status);
      }
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400));
      expect(statuses[10]).toBe(429);
      const limited = await postJson(server.url, SIGNUP, {});
      expectJsonError(limited, 429);

      // behind the Remix server each browser gets its own budget (X-Forwarded-For)
      const viaProxy = async (clientIp: string) =>
        (
          await fetch(server.url + SIGNUP, {
            method: "POST",
            headers: { "Content-Type": "application/json", ...proxyHeaders(), "X-Forwarded-For": clientIp },
            body: "{}",
          })
        ).status;
      for (let i = 0; i < 10; i++) {
        expect(await viaProxy("203.0.113.7")).toBe(400);
      }
      expect(await viaProxy("203.0.113.7")).toBe(429);
      expect(await viaProxy("203.0.113.8")).toBe(400);
    } finally {
      await admin.settings.update({ rateLimits: { excludedIPs: ["127.0.0.1"] } });
    }
  });
});
