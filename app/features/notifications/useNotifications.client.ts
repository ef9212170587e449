import { takesPart } from "~/features/threads/summaries.client";
import { useCallback, useEffect, useState, type MutableRefObject } from "react";
import type { UserSettings } from "~/lib/session-user";
import type { Channel } from "~/features/channels/types";
import type { DecryptedMessage } from "~/features/messages/messages.client";
import { shouldNotify, type PermissionState } from "~/features/notifications/notify";
import {
  notificationPermission,
  requestNotificationPermission,
  sendEmailNotification,
  showDesktopNotification,
} from "~/features/notifications/notifications.client";

/** Desktop and email notifications for incoming messages (spec §4, §9), by the user's triggers. */
export function useNotifications(username: string, settingsRef: MutableRefObject<UserSettings>) {
  const [permission, setPermission] = useState<PermissionState>("default");
  useEffect(() => setPermission(notificationPermission()), []);

  /** Whether any notification could follow a message, so messages of closed channels need decrypting. */
  const wanted = useCallback(
    () => settingsRef.current.desktopNotificationsEnabled || settingsRef.current.emailNotificationsEnabled,
    [settingsRef],
  );

  const notifyAbout = useCallback(
    (channel: Channel, message: DecryptedMessage) => {
      const current = settingsRef.current;
      if (!current.desktopNotificationsEnabled && !current.emailNotificationsEnabled) return;
      const decision = shouldNotify({
        text: message.text || message.attachments.map((a) => a.name).join(", ") || "New attachment",
        own: message.own,
        username,
        notifyOnMention: current.notifyOnMention,
        keywords: current.notifyKeywords,
        direct: channel.direct,
        participant: Boolean(message.thread && takesPart(message.thread)),
      });
      if (!decision.notify) return;
      const unfocused = !document.hasFocus();
      if (current.desktopNotificationsEnabled && unfocused) {
        const place = channel.direct ? `@${channel.name}` : `#${channel.name}`;
        showDesktopNotification(`${message.senderUsername} in ${place}`, message.text || "Sent an attachment");
      }
      if (current.emailNotificationsEnabled && (unfocused || document.hidden)) {
        sendEmailNotification({
          channelName: channel.name,
          senderUsername: message.senderUsername,
          mention: decision.mention,
          text: current.emailIncludeContent ? message.text : null,
        });
      }
    },
    [username, settingsRef],
  );

  const requestPermission = () => void requestNotificationPermission().then(setPermission);

  return { permission, requestPermission, notifyAbout, wanted };
}
