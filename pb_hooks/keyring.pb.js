// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Leaving a channel (or being removed from it) takes the member's keyring entry for that channel
// along, in the same transaction as the membership. A deleted channel's entries go by cascade.
onRecordAfterDeleteSuccess((e) => {
  const membership = e.record;
  const entries = e.app.findRecordsByFilter("keyring_entries", "user = {:user} && channel = {:channel}", "", 0, 0, {
    user: membership.getString("user"),
    channel: membership.getString("channel"),
  });
  for (const entry of entries) {
    e.app.delete(entry);
  }
  e.next();
}, "channel_members");
