// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// Replacing a conversation's MLS group (pb_hooks/mls_reset.pb.js, docs/decisions/0049-groups-that-recover.md):
// the creator's device made a new group for the same channel; its commits, Welcomes, key-package claims
// and epochs start again. Messages stay: each device keeps what it read (read-store), and tells the old group's from
// the new one's by the time of the reset.

const { forbidden, invalidRecord } = require(`${__hooks}/lib/errors.js`);
const { requireGroup, requireValidGroupInfo } = require(`${__hooks}/lib/mls.js`);
const { findMembership } = require(`${__hooks}/lib/channels.js`);
const { isAdminRole, roleOf } = require(`${__hooks}/lib/roles.js`);

const ONLY_CREATOR = "Only the conversation's creator, a person of a one-to-one, or an administrator in it can reset its encryption.";

/**
 * The conversation's creator, or a workspace administrator who is a member of it (their device makes
 * the new group and welcomes the others, so they must be in it).
 * @param {core.App} txApp
 * @param {core.Record} channel
 * @param {string} userId
 */
function mayReset(txApp, channel, userId) {
  if (channel.getString("created_by") === userId) return true;
  // Either person of a one-to-one, who may have to start it afresh when neither can open it (ADR 0098).
  const pair = channel.getString("direct_key").split(":");
  if (pair.indexOf(userId) >= 0 && findMembership(txApp, channel.id, userId) !== null) return true;
  return isAdminRole(roleOf(txApp, userId)) && findMembership(txApp, channel.id, userId) !== null;
}

/**
 * Which group of the channel is current: its generation (0 before any reset), who made it and when.
 * @param {core.Record} group
 */
function groupMark(group) {
  return { generation: group.getInt("generation"), reset_by: group.getString("reset_by"), reset_at: group.getString("reset_at") };
}

/**
 * The group, replaced by the creator's new one at epoch 0: every commit and Welcome of the old one goes.
 * @param {core.App} txApp
 * @param {{ channel: core.Record, userId: string, groupInfo: string }} r
 */
function replaceGroup(txApp, r) {
  if (!mayReset(txApp, r.channel, r.userId)) throw forbidden(ONLY_CREATOR);
  const channelId = r.channel.id;
  // The new group's GroupInfo at epoch 0, signed by a leaf of the creator's own devices, like a first group's.
  requireValidGroupInfo(channelId, 0, r.groupInfo, r.userId);
  const group = requireGroup(txApp, channelId);
  // The key packages claimed for the old group were used by its Welcomes: the new group's are claimed afresh.
  for (const name of ["mls_commits", "mls_welcomes", "mls_key_claims"])
    for (const old of txApp.findRecordsByFilter(name, "channel = {:channel}", "", 0, 0, { channel: channelId })) txApp.delete(old);
  group.set("epoch", 0);
  group.set("group_info", r.groupInfo);
  group.set("generation", group.getInt("generation") + 1);
  group.set("reset_by", r.userId);
  group.set("reset_at", new DateTime());
  try {
    txApp.save(group);
  } catch (err) {
    throw invalidRecord(err, "The group could not be replaced.");
  }
  return groupMark(group);
}

module.exports = { ONLY_CREATOR, groupMark, replaceGroup };
