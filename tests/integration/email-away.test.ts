// Email notifications reach someone with no page open (pocketbase/notify_mail.go): the push worker
// mails the members a message should notify, by their rules, when none of their pages is open, to a
// verified address they turned notifications on for; at most one mail per conversation every ten
// minutes, never the message text. A real PocketBase and a real SMTP server on loopback (email-stack.ts).

import { describe, expect, it } from "vitest";
import { notification, notificationsTo, notify, pb, smtp, useMailStack, userWith } from "./email-stack";
import { openPage } from "./open-page";
import { createChannel, fakeCiphertext, fakePublicKey, joinChannel, type TestUser } from "./pocketbase";

useMailStack();

const send = (from: TestUser, channelId: string, mentions: string[] = [], thread?: { root: string; only: boolean }) =>
  from.pb.collection("messages").create({
    channel: channelId,
    sender: from.id,
    encrypted_content: fakeCiphertext(200),
    sender_public_key: fakePublicKey(),
    mentions,
    ...(thread ? { thread: thread.root, kind: thread.only ? "reply" : "" } : {}),
  });

/** A mention of a new member with mail on, in a new channel: a mail that must arrive, after the ones that must not. */
async function sentinel(from: TestUser) {
  const carol = await userWith({ email_notifications_enabled: true });
  const room = await createChannel(from);
  await joinChannel(carol, room);
  await send(from, room.id, [carol.id]);
  await expect.poll(() => notificationsTo(carol.email).length, { timeout: 10_000 }).toBe(1);
}

describe("email notifications with no page open", () => {
  it("a mention mails a member whose pages are all closed: who and where, never the text; one mail per conversation for a while", async () => {
    const alice = await userWith({});
    const bob = await userWith({ email_notifications_enabled: true });
    const channel = await createChannel(alice);
    await joinChannel(bob, channel);

    const first = await send(alice, channel.id, [bob.id]);
    await expect.poll(() => notificationsTo(bob.email).length, { timeout: 10_000 }).toBe(1);
    const [mail] = notificationsTo(bob.email);
    expect(mail.rcptTo).toEqual([bob.email]);
    expect(mail.subject).toBe(`New mention in #${channel.name}`);
    expect(mail.text).toContain(`@${alice.username} mentioned you in #${channel.name}.`);
    expect(mail.text).toContain("Open ChatCrypt to read it.");
    // a link to the message in the app, from a phone's mail too
    expect(mail.text).toContain(`https://chat.example.test/c/${channel.id}/m/${first.id}`);
    expect(mail.html).toContain(`<a href="https://chat.example.test/c/${channel.id}/m/${first.id}">Open ChatCrypt</a>`);
    expect(mail.raw).not.toContain(first.encrypted_content.slice(0, 40));

    // more mentions in the same conversation within minutes: no second mail
    await send(alice, channel.id, [bob.id]);
    await send(alice, channel.id, [bob.id]);
    await sentinel(alice);
    expect(notificationsTo(bob.email)).toHaveLength(1);
  });

  it("no mail without a mention where the rules ask for mentions, with mail off, to an unverified address, or while a page is open", async () => {
    const alice = await userWith({});
    const plain = await userWith({ email_notifications_enabled: true });
    const off = await userWith({});
    const unverified = await userWith({ email_notifications_enabled: true }, { verified: false });
    const open = await userWith({ email_notifications_enabled: true });
    const channel = await createChannel(alice);
    for (const member of [plain, off, unverified, open]) expect((await joinChannel(member, channel)).status).toBe(200);

    const close = await openPage(pb.url, open.token);

    await send(alice, channel.id);
    await send(alice, channel.id, [off.id, unverified.id, open.id]);
    await sentinel(alice);
    for (const member of [plain, off, unverified, open]) expect(notificationsTo(member.email), member.username).toEqual([]);
    close();
    expect(smtp.mailsTo(unverified.email).filter((m) => /^New /.test(m.subject))).toEqual([]);
  });

  it("a mail a page asked for holds back the one sent once the pages close, for the same while", async () => {
    const alice = await userWith({});
    const bob = await userWith({ email_notifications_enabled: true });
    const channel = await createChannel(alice);
    await joinChannel(bob, channel);
    // his page is open (not in front): it reads the mention and asks for its mail
    const close = await openPage(pb.url, bob.token);
    const first = await send(alice, channel.id, [bob.id]);
    const asked = await notify(bob, notification({ messageId: first.id, channelName: channel.name, senderUsername: alice.username }));
    expect(asked.json).toEqual({ sent: true });
    // the page's mail links to the message too; one about a message of a conversation he is not in does not
    expect(notificationsTo(bob.email)[0].text).toContain(`https://chat.example.test/c/${channel.id}/m/${first.id}`);
    const elsewhere = await send(alice, (await createChannel(alice)).id);
    const carol = await userWith({ email_notifications_enabled: true });
    expect((await notify(carol, notification({ messageId: elsewhere.id }))).json).toEqual({ sent: true });
    await expect.poll(() => notificationsTo(carol.email).length, { timeout: 10_000 }).toBe(1);
    expect(notificationsTo(carol.email)[0].html).not.toContain("href");
    // he closes it; another mention comes seconds later
    close();
    await send(alice, channel.id, [bob.id]);
    await sentinel(alice);
    expect(notificationsTo(bob.email)).toHaveLength(1);
  });

  it("a reply in a thread mails those who took part in it, as a mention does; a member who did not gets none", async () => {
    const alice = await userWith({});
    const bob = await userWith({ email_notifications_enabled: true });
    const carol = await userWith({ email_notifications_enabled: true });
    const dave = await userWith({ email_notifications_enabled: true });
    const channel = await createChannel(alice);
    for (const member of [bob, carol, dave]) await joinChannel(member, channel);
    // Carol wrote the root, Bob replied in the thread only; Dave is only a member
    const root = await send(carol, channel.id);
    await send(bob, channel.id, [], { root: root.id, only: true });
    await sentinel(alice);
    expect([bob, carol, dave].map((m) => notificationsTo(m.email).length)).toEqual([0, 1, 0]);
    // Alice answers in the thread (sent to the channel too): both who took part are mailed, not Dave
    await send(alice, channel.id, [], { root: root.id, only: false });
    await expect.poll(() => notificationsTo(bob.email).length, { timeout: 10_000 }).toBe(1);
    await sentinel(alice);
    // (a new message, as the page's own mail about such a reply says; "mentioned you" only where he is)
    expect(notificationsTo(bob.email)[0].subject).toBe(`New message in #${channel.name}`);
    // (its link opens the thread)
    expect(notificationsTo(bob.email)[0].text).toContain(`https://chat.example.test/c/${channel.id}/t/${root.id}`);
    expect(notificationsTo(dave.email)).toEqual([]);
  });
});
