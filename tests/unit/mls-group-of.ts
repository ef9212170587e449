import { addProposal, commit, newGroup, newKeyPackage } from "../../app/conversation/mls/mls";

/** A group whose first identity created it and added the others in one commit: the creator's state, the Welcome, the devices. */
export async function groupOf(identities: string[], groupId = "leaves") {
  const devices = await Promise.all(identities.map((id) => newKeyPackage(id)));
  const creator = await newGroup(groupId, devices[0]);
  const added = await commit(
    creator,
    devices.slice(1).map((d) => addProposal(d.publicPackage)),
  );
  return { creator: added.state, welcome: added.welcome!, devices };
}
