// The capacity phase of bench/run.mjs: the seeded listening accounts get real tokens, the web server's
// own session cookies and real memberships of the capacity channel (bench/lib/seed.mjs); the machine's
// raw create is timed (printed beside the ceilings: issue 49); then the ramp (bench/lib/capacity.mjs).
import { rawCreateTime } from "./baseline.mjs";
import { capacityRamp } from "./capacity.mjs";
import { warmProfiles } from "./chat.mjs";
import { CFG } from "./config.mjs";
import { sendBench } from "./delivery.mjs";
import { fdLimits } from "./fds.mjs";
import { addMembers, impersonate, sessionCookies } from "./seed.mjs";
import { pool } from "./stats.mjs";

export async function capacityPhase({ root, c, stack, pids, channel, full, results, log, timeLeft }) {
  const t = performance.now();
  const ids = stack.seeded;
  const tokens = await impersonate(stack.pbUrl, stack.superuserToken, ids);
  const cookieFor = sessionCookies(stack.sessionSecret);
  const listeners = [];
  for (let i = 0; i < ids.length; i++) listeners.push({ id: ids[i], cookie: await cookieFor(tokens[i], ids[i]) });
  await addMembers(stack.pbUrl, stack.superuserToken, channel.id, ids, full[0].user.ecdhPublicKey);
  results.signups.listeners = listeners.length;
  results.signups.listenerSeconds = (performance.now() - t) / 1000;
  log(`${listeners.length} listening accounts: tokens, session cookies and memberships in ${results.signups.listenerSeconds.toFixed(1)} s`);
  const rawCreateMs = await rawCreateTime(stack, full[0], channel);
  log(`  raw create straight to PocketBase: ${rawCreateMs.toFixed(1)} ms (median of 50, one at a time)`);
  const senders = full.slice(0, CFG.capacitySenders);
  await pool(full.slice(0, CFG.capacityVerifying), 8, (client) =>
    warmProfiles(
      c,
      client,
      senders.map((s) => s.user.id),
    ),
  );
  const ramp = await capacityRamp({
    root,
    c,
    stack,
    pids,
    channel,
    pages: full,
    listeners,
    cfg: { ...CFG, openConcurrency: CFG.capacityOpenConcurrency, fdLimit: fdLimits().soft },
    log,
    timeLeft,
    send: (tally, sender, index, i) => sendBench(c, tally, sender, index, channel, i),
  });
  return { ...ramp, rawCreateMs };
}
