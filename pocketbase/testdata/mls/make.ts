// Makes the MLS fixtures of pocketbase/mlscheck_test.go with the app's own MLS code (ts-mls), in group
// "chan0123456789a": `npx vite-node pocketbase/testdata/mls/make.ts` (fresh keys on every run).
import { writeFileSync } from "node:fs";
import { addProposal, commit, externalJoin, groupInfo, newGroup, newKeyPackage, seal } from "../../../app/conversation/mls/mls";

const dir = "pocketbase/testdata/mls";
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const out = (name: string, bytes: Uint8Array) => writeFileSync(`${dir}/${name}`, b64(bytes) + "\n");

const alice = await newKeyPackage("alice000000000a:alice-laptop:proof");
const bob = await newKeyPackage("bob00000000000bb:bob-phone:proof");
const state0 = await newGroup("chan0123456789a", alice);
out("group-info-0.b64", await groupInfo(state0));
const added = await commit(state0, [addProposal(bob.publicPackage)]);
out("commit-0.b64", added.commit);
out("group-info-1.b64", await groupInfo(added.state));
out("message-1.b64", (await seal(added.state, new TextEncoder().encode("hello"))).message);
const joined = await externalJoin(await groupInfo(added.state), await newKeyPackage("carol00000000cc:carol-desk:proof"));
out("external-commit-1.b64", joined.commit);
out("group-info-2.b64", await groupInfo(joined.state));
// Dave's external join from the same GroupInfo: his GroupInfo does not go with Carol's commit.
const other = await externalJoin(await groupInfo(added.state), await newKeyPackage("dave000000000dd:dave-desk:proof"));
out("group-info-2-dave.b64", await groupInfo(other.state));
