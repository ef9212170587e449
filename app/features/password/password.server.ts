import type { AppLoadContext } from "@remix-run/node";
import type PocketBase from "pocketbase";
import type { z } from "zod";
import { knownDeviceHeaders } from "~/features/auth/device.server";
import { agentHeaders } from "~/features/devices/devices.server";
import type { changePasswordRequestSchema } from "~/features/password/validation";
import { failOnOutage } from "~/server/outage.server";
import { pbErrorMessage, pbStatus } from "~/server/pocketbase.server";
import { fail } from "~/server/responses.server";
import { requireLiveSessionAfterRefusal } from "~/server/session-check.server";

const FAILED = "The password could not be changed. Your current password still works.";

interface Caller {
  userId: string;
  token: string;
  context?: AppLoadContext;
}

/** A PocketBase refusal: 401 when the session itself ended, an outage as such, else the fallback. */
async function refused(error: unknown, caller: Caller): Promise<never> {
  failOnOutage(error);
  if ([401, 403].includes(pbStatus(error))) await requireLiveSessionAfterRefusal(caller.token, caller.context);
  fail(502, FAILED);
}

/**
 * The server step of a password change (pb_hooks/password.pb.js): one transaction sets the new login
 * secret and the keys wrapped under the new password, and ends every session of the account. Answers
 * the caller's new PocketBase token. Wrong current passwords count like failed sign-ins, against this
 * browser's own limit when it signed in to the account before (device.server.ts).
 */
export async function changePassword(
  pb: PocketBase,
  request: Request,
  caller: Caller,
  body: z.infer<typeof changePasswordRequestSchema>,
): Promise<string> {
  let email = "";
  try {
    ({ email } = await pb.collection("users").getOne<{ email: string }>(caller.userId, { fields: "email" }));
  } catch (error) {
    await refused(error, caller);
  }
  try {
    const auth = await pb.send<{ token: string }>("/api/chat/password", {
      method: "POST",
      body: {
        current: body.currentLoginSecret,
        password: body.loginSecret,
        encrypted_ecdh_private_key: body.encryptedEcdhPrivateKey,
        encrypted_rsa_private_key: body.encryptedRsaPrivateKey,
        kdf_iterations: body.kdfIterations,
      },
      headers: { ...(await knownDeviceHeaders(request, email)), ...agentHeaders(request) },
    });
    return auth.token;
  } catch (error) {
    const status = pbStatus(error);
    if (status === 400 || status === 409 || status === 429) fail(status, pbErrorMessage(error) ?? FAILED);
    return refused(error, caller);
  }
}
