import { ChatError } from "~/lib/errors";
import type { useDialog } from "~/ui/useDialog";
import { clearMessages } from "~/features/channels/channels.client";
import type { useChannels } from "~/features/channels/useChannels.client";
import type { useDirect } from "~/features/direct/useDirect.client";
import type { useChannelHistory } from "~/features/messages/useChannelHistory.client";
import type { useMessageActions } from "~/features/messages/useMessageActions.client";
import type { useSend } from "~/features/messages/useSend.client";
import type { useMembers } from "~/features/members/useMembers.client";
import { alsoQuietHours } from "~/features/notify-rules/rules.client";
import type { useSearch } from "~/features/search/useSearch.client";
import { SETTINGS_SAVE_FAILED, type useSettings } from "~/features/settings/useSettings.client";
import type { whatsappMode } from "~/features/workspace/ComposerModes";
import type { DialogActions, DialogState } from "~/features/workspace/WorkspaceDialogs";

/** The features the workspace's dialogs act on (Workspace.tsx wires them). */
export interface ActionWiring {
  dialogs: ReturnType<typeof useDialog<DialogState>>;
  channels: ReturnType<typeof useChannels>;
  direct: ReturnType<typeof useDirect>;
  history: ReturnType<typeof useChannelHistory>;
  messageActions: ReturnType<typeof useMessageActions>;
  members: ReturnType<typeof useMembers>;
  search: ReturnType<typeof useSearch>;
  saveSettings: ReturnType<typeof useSettings>["save"];
  requestPermission: () => void;
  signOut: () => void;
}

/** What each dialog's confirmation does: the feature's action, its failure said in the dialog. */
export function dialogActions(w: ActionWiring): DialogActions {
  const { dialogs, channels, history, search } = w;
  return {
    create: (values) => void dialogs.run(() => channels.create(values), "Failed to create channel"),
    join: (values) =>
      void dialogs.run(async () => {
        const open = channels.selected?.id;
        await channels.join(values);
        // The open channel joined again (this device lacked its password): its messages are read now.
        if (open && open === values.channelId.trim()) history.reload();
      }, "Failed to join channel"),
    remove: (channel, how) =>
      void dialogs.run(
        () => w.direct.leave(channel, () => channels.remove(channel, how)),
        how === "delete" ? "Failed to delete channel" : "Failed to leave channel",
      ),
    removeAll: () => void dialogs.run(channels.removeAll, "Failed to delete channels"),
    clear: (channel) =>
      void dialogs.run(async () => {
        await clearMessages(channel.id).catch(() => Promise.reject(new ChatError("Failed to clear messages")));
        search.live.cleared(channel.id);
        if (channels.selected?.id === channel.id) history.clear();
      }, "Failed to clear messages"),
    saveSettings: (values, quiet) => void dialogs.run(() => alsoQuietHours(w.saveSettings(values), quiet), SETTINGS_SAVE_FAILED),
    deleteMessage: (message) =>
      void dialogs.run(() => w.messageActions.deleteMessage(message), "The message could not be deleted. Please try again."),
    removeMember: (member) =>
      void dialogs.run(() => w.members.remove(member), `${member.username} could not be removed. Please try again.`),
    requestPermission: w.requestPermission,
    signOut: w.signOut,
  };
}

/** The composer's Send: to WhatsApp in WhatsApp mode, else to the open conversation (as a reply when one is chosen). */
export function composerSend(
  whatsapp: ReturnType<typeof whatsappMode> | null,
  sender: ReturnType<typeof useSend>,
  messageActions: ReturnType<typeof useMessageActions>,
) {
  return async (text: string): Promise<boolean> => {
    if (whatsapp) return whatsapp.send(text);
    const sent = await sender.send(text, messageActions.replyTo?.id);
    if (sent) messageActions.setReplyTo(null);
    return sent;
  };
}
