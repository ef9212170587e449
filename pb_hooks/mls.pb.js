// @ts-check
/// <reference path="../types/hooks.d.ts" />

// The delivery service of sealed channels (pb_hooks/lib/mls.js, docs/decisions/0015-sealed-channels-mls.md).
//
// POST /api/chat/mls/key-packages        {device, one_time: [b64url], last_resort: b64url}   the caller's device
//                                        (its one-time packages older than 30 days are dropped; at most
//                                        20 devices and 60 waiting packages each, else 409: lib/mls_packages.js)
// POST /api/chat/mls/key-packages/claim  {user_id, channel_id} one package per device of a member of a
//                                        conversation the caller is in, the same ones again for that
//                                        conversation (pb_hooks/lib/mls_claims.js)
// POST /api/chat/mls/groups              {channel_id, group_info}                  the creator seals a channel (epoch 0)
// POST /api/chat/mls/commits             {channel_id, epoch, commit, group_info, welcome?}   a member's commit
//                                        (with the Welcome of the devices it adds, kept in mls_welcomes)
// POST /api/chat/mls/group-info          {channel_id, verifier}                    the GroupInfo for an external join
// POST /api/chat/mls/external-join       {channel_id, verifier, epoch, commit, group_info}
//   (a direct conversation's participant sends no verifier: only listed participants are let in)
// Every commit must be an MLS commit for the channel's group at `epoch` (an external join's a public
// message), and every GroupInfo the group's at the epoch it moves to, signed by a leaf of the caller's
// own devices (pocketbase/mlscheck.go); anything else is a 400 and the epoch does not move.
// GET  /api/chat/mls/commits?channel_id=&since=N     the accepted commits from epoch N on (members), and
//                                        which group is current (generation, reset_by, reset_at: ADR 0049)
// A sealed channel's messages are refused (409) unless encrypted for the group's current epoch
// (pocketbase/sealed.go, in Go: it runs before every message is stored).
//
// Errors: 400 malformed input, 401 not signed in, 403 "Incorrect password" / not a member / not the creator,
//         404 channel or group not found, 409 stale commit or group already sealed, 429 too many join
//         attempts or key packages claimed.

routerAdd(
  "POST",
  "/api/chat/mls/key-packages",
  (e) => {
    const { badRequest, invalidRecord } = require(`${__hooks}/lib/errors.js`);
    const { requireUser, readJsonObject } = require(`${__hooks}/lib/request.js`);
    const { MAX_ONE_TIME, mlsData, deviceOf } = require(`${__hooks}/lib/mls.js`);
    const { checkPackageCaps } = require(`${__hooks}/lib/mls_packages.js`);
    const user = requireUser(e, "Not authenticated");
    const body = readJsonObject(e);
    const device = deviceOf(body);
    const lastResort = mlsData(body, "last_resort", 8000);
    const oneTime = body.one_time;
    if (!Array.isArray(oneTime) || oneTime.length > MAX_ONE_TIME)
      throw badRequest(`one_time must be a list of at most ${MAX_ONE_TIME} key packages.`);
    const packages = oneTime.map((_, i) => mlsData(oneTime, String(i), 8000));
    e.app.runInTransaction((txApp) => {
      const collection = txApp.findCollectionByNameOrId("mls_key_packages");
      // at most 20 devices and 60 waiting one-time packages each (lib/mls_packages.js)
      checkPackageCaps(txApp, user.id, device, packages.length);
      // One-time packages older than 30 days go (the device sends fresh ones before then).
      const cutoff = new DateTime().addDate(0, 0, -30).string();
      for (const old of txApp.findRecordsByFilter(
        "mls_key_packages",
        "user = {:user} && device = {:device} && last_resort = false && created < {:cutoff}",
        "",
        0,
        0,
        { user: user.id, device, cutoff },
      ))
        txApp.delete(old);
      // The device's previous last-resort package is replaced.
      for (const old of txApp.findRecordsByFilter(
        "mls_key_packages",
        "user = {:user} && device = {:device} && last_resort = true",
        "",
        0,
        0,
        {
          user: user.id,
          device,
        },
      ))
        txApp.delete(old);
      for (const [data, last] of [...packages.map((p) => [p, false]), [lastResort, true]]) {
        const record = new Record(collection);
        record.set("user", user.id);
        record.set("device", device);
        record.set("data", data);
        record.set("last_resort", last);
        try {
          txApp.save(record);
        } catch (err) {
          throw invalidRecord(err, "The key packages could not be saved.");
        }
      }
    });
    return e.json(200, { stored: packages.length + 1 });
  },
  $apis.bodyLimit(512 * 1024),
);

routerAdd(
  "POST",
  "/api/chat/mls/key-packages/claim",
  (e) => {
    const { patterns, requireUser, readJsonObject, matching } = require(`${__hooks}/lib/request.js`);
    const { checkChannelId } = require(`${__hooks}/lib/channels.js`);
    const { claimKeyPackages } = require(`${__hooks}/lib/mls_claims.js`);
    const caller = requireUser(e, "Not authenticated");
    const body = readJsonObject(e);
    const userId = matching(body, "user_id", patterns.userId, "user_id must be a user id.");
    const channelId = checkChannelId(body.channel_id);
    return e.json(200, { key_packages: claimKeyPackages(e.app, { callerId: caller.id, userId, channelId }) });
  },
  $apis.bodyLimit(4 * 1024),
);

routerAdd(
  "POST",
  "/api/chat/mls/groups",
  (e) => {
    const { conflict, forbidden, invalidRecord } = require(`${__hooks}/lib/errors.js`);
    const { requireUser, readJsonObject } = require(`${__hooks}/lib/request.js`);
    const { checkChannelId, requireChannel } = require(`${__hooks}/lib/channels.js`);
    const { mlsData, requireValidGroupInfo } = require(`${__hooks}/lib/mls.js`);
    const user = requireUser(e, "Not authenticated");
    const body = readJsonObject(e);
    const channelId = checkChannelId(body.channel_id);
    const groupInfo = mlsData(body, "group_info", 2000000);
    requireValidGroupInfo(channelId, 0, groupInfo, user.id);
    e.app.runInTransaction((txApp) => {
      const channel = requireChannel(txApp, channelId);
      if (channel.getString("created_by") !== user.id) throw forbidden("Only the channel creator can seal the channel.");
      // sealed is chosen when the channel is created: a classic channel's history and members never joined a group
      if (!channel.getBool("sealed")) throw conflict("Only a channel created sealed has a group; this one was created unsealed.");
      const record = new Record(txApp.findCollectionByNameOrId("mls_groups"));
      record.set("channel", channelId);
      record.set("epoch", 0);
      record.set("group_info", groupInfo);
      try {
        txApp.save(record);
      } catch (err) {
        if (txApp.countRecords("mls_groups", $dbx.hashExp({ channel: channelId })) > 0) throw conflict("This channel is already sealed.");
        throw invalidRecord(err, "The group could not be saved.");
      }
    });
    return e.json(200, { epoch: 0 });
  },
  $apis.bodyLimit(2100 * 1024),
);

routerAdd(
  "POST",
  "/api/chat/mls/commits",
  (e) => {
    const { requireUser, readJsonObject } = require(`${__hooks}/lib/request.js`);
    const { checkChannelId } = require(`${__hooks}/lib/channels.js`);
    const { mlsData, epochOf, acceptCommit, requireMember, saveWelcome } = require(`${__hooks}/lib/mls.js`);
    const user = requireUser(e, "Not authenticated");
    const body = readJsonObject(e);
    const channelId = checkChannelId(body.channel_id);
    const epoch = epochOf(body);
    const commit = mlsData(body, "commit", 2000000);
    const groupInfo = mlsData(body, "group_info", 2000000);
    const welcome = body.welcome === undefined ? null : mlsData(body, "welcome", 2000000);
    let next = 0;
    e.app.runInTransaction((txApp) => {
      requireMember(txApp, channelId, user.id);
      next = acceptCommit(txApp, { channelId, userId: user.id, epoch, commit, groupInfo, external: false });
      if (welcome) saveWelcome(txApp, channelId, epoch, welcome);
    });
    return e.json(200, { epoch: next });
  },
  $apis.bodyLimit(4200 * 1024),
);

routerAdd(
  "POST",
  "/api/chat/mls/group-info",
  (e) => {
    const { requireGroup, readGroupJoin } = require(`${__hooks}/lib/mls.js`);
    const { channelId, admit } = readGroupJoin(e);
    admit(e.app);
    const group = requireGroup(e.app, channelId);
    const { groupMark } = require(`${__hooks}/lib/mls_reset.js`);
    return e.json(200, { epoch: group.getInt("epoch"), group_info: group.getString("group_info"), ...groupMark(group) });
  },
  $apis.bodyLimit(16 * 1024),
);

routerAdd(
  "POST",
  "/api/chat/mls/external-join",
  (e) => {
    const { nonEmptyString } = require(`${__hooks}/lib/request.js`);
    const { addMembership } = require(`${__hooks}/lib/channels.js`);
    const { mlsData, epochOf, acceptCommit, readGroupJoin } = require(`${__hooks}/lib/mls.js`);
    const { user, body, channelId, admit } = readGroupJoin(e);
    const ecdhPublicKey = nonEmptyString(body, "ecdh_public_key");
    const epoch = epochOf(body);
    const commit = mlsData(body, "commit", 2000000);
    const groupInfo = mlsData(body, "group_info", 2000000);
    let next = 0;
    e.app.runInTransaction((txApp) => {
      // The password (or, in a direct conversation, the caller's place on its list) first: without
      // it no commit of this user reaches the group.
      admit(txApp);
      next = acceptCommit(txApp, { channelId, userId: user.id, epoch, commit, groupInfo, external: true });
      addMembership(txApp, channelId, user.id, ecdhPublicKey);
    });
    return e.json(200, { epoch: next });
  },
  $apis.bodyLimit(4200 * 1024),
);

routerAdd("GET", "/api/chat/mls/commits", (e) => {
  const { badRequest } = require(`${__hooks}/lib/errors.js`);
  const { requireUser } = require(`${__hooks}/lib/request.js`);
  const { checkChannelId } = require(`${__hooks}/lib/channels.js`);
  const { requireMember, commitsSince } = require(`${__hooks}/lib/mls.js`);
  const user = requireUser(e, "Not authenticated");
  const channelId = checkChannelId(e.request.url.query().get("channel_id"));
  const sinceText = e.request.url.query().get("since");
  if (!/^[0-9]{1,9}$/.test(sinceText)) throw badRequest("since must be a whole number, 0 or more.");
  requireMember(e.app, channelId, user.id);
  const commits = commitsSince(e.app, channelId, Number(sinceText), 100);
  // Which group they belong to, read after them: a reset meanwhile shows as a new generation (ADR 0049).
  const { groupMark } = require(`${__hooks}/lib/mls_reset.js`);
  const group = e.app.findRecordsByFilter("mls_groups", "channel = {:channel}", "", 1, 0, { channel: channelId })[0];
  return e.json(200, { commits, ...(group ? { group: groupMark(group) } : {}) });
});
