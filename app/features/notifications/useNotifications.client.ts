import { takesPart } from "~/features/threads/summaries.client";
import { goTo } from "~/features/address/address.client";
import { HOME } from "~/features/address/address";
import { useCallback, useEffect, useState, type MutableRefObject } from "react";
import type { SessionUser, UserSettings } from "~/lib/session-user";
import type { Channel } from "~/conversation/channels/types";
import type { DecryptedMessage } from "~/features/messages/messages.client";
import { chimes, mentionsUser, notifiesByRules, type PermissionState } from "~/features/notifications/notify";
import { offerDue, offerOpen } from "~/features/notifications/offer.client";
import { playChime } from "~/features/notifications/sound.client";
import { currentRules, loadRules } from "~/features/notify-rules/rules.client";
import {
  notificationPermission,
  requestNotificationPermission,
  sendEmailNotification,
  showDesktopNotification,
} from "~/features/notifications/notifications.client";

/**
 * Desktop and email notifications for incoming messages (spec §4, §9), by the user's triggers and
 * their notification rules (each conversation's choice and mute, Do not disturb); and the chime of
 * the open conversation, which its mute, "Nothing" and Do not disturb silence too.
 */
export function useNotifications(user: Pick<SessionUser, "id" | "username">, settingsRef: MutableRefObject<UserSettings>) {
  const { id: userId, username } = user;
  const [permission, setPermission] = useState<PermissionState>("default");
  useEffect(() => setPermission(notificationPermission()), []);
  useEffect(() => void loadRules(userId), [userId]);

  /** Desktop notifications are on (the default) and this browser lets them show. */
  const desktop = useCallback(
    () => settingsRef.current.desktopNotificationsEnabled && notificationPermission() === "granted",
    [settingsRef],
  );
  /**
   * Whether a notification, or the offer of notifications, could follow a message, so messages of
   * closed channels (and thread replies, which count nowhere else) need decrypting.
   */
  const wanted = useCallback(
    () => desktop() || settingsRef.current.emailNotificationsEnabled || (offerOpen(userId) && notificationPermission() === "default"),
    [desktop, settingsRef, userId],
  );

  const notifyAbout = useCallback(
    (channel: Channel, message: DecryptedMessage) => {
      const current = settingsRef.current;
      // the first direct message or mention of someone else offers notifications (ADR 0067)
      if (!message.own && (channel.direct || mentionsUser(message.text, username))) offerDue(userId);
      if (!desktop() && !current.emailNotificationsEnabled) return;
      const decision = notifiesByRules(
        currentRules(),
        channel,
        {
          text: message.text || message.attachments.map((a) => a.name).join(", ") || "New attachment",
          own: message.own,
          username,
          keywords: current.notifyKeywords,
          participant: Boolean(message.thread && takesPart(message.thread)),
        },
        new Date(),
      );
      if (!decision.notify) return;
      const unfocused = !document.hasFocus();
      if (desktop() && unfocused) {
        const place = channel.direct ? `@${channel.name}` : `#${channel.name}`;
        // (a click opens the conversation at the message, or its thread, as a push notification's does)
        showDesktopNotification(`${message.senderUsername} in ${place}`, message.text || "Sent an attachment", {
          tag: channel.id,
          open: () =>
            goTo({ ...HOME, conversationId: channel.id, ...(message.thread ? { thread: message.thread } : { message: message.id }) }),
        });
      }
      if (current.emailNotificationsEnabled && (unfocused || document.hidden)) {
        sendEmailNotification({
          messageId: message.id,
          channelName: channel.name,
          direct: Boolean(channel.direct),
          senderUsername: message.senderUsername,
          mention: decision.mention,
          text: current.emailIncludeContent ? message.text : null,
        });
      }
    },
    [userId, username, settingsRef, desktop],
  );

  /** Messages of others that arrived in the open conversation. */
  const chime = useCallback((arrived: DecryptedMessage[]) => {
    const first = arrived[0];
    if (first && chimes(currentRules(), first.channelId, new Date())) playChime();
  }, []);

  const requestPermission = () => requestNotificationPermission().then(setPermission);

  return { permission, requestPermission, notifyAbout, wanted, chime };
}
