import { ConfirmDialog } from "~/ui/Modal";
import { lazyPart } from "~/ui/lazyPart";
import type { Channel } from "~/conversation/channels/types";
import type { ChannelMember } from "~/features/members/types";
import type { DecryptedMessage } from "~/features/messages/messages.client";

// The channel forms (and their validator), Notification Settings and the contact book load when first opened.
const asDialog = { whenFailed: "toast" } as const;
const CreateChannelModal = lazyPart(() => import("~/features/channels/ChannelForms").then((m) => m.CreateChannelModal), asDialog);
const NotificationSettingsModal = lazyPart(
  () => import("~/features/notifications/NotificationSettingsModal").then((m) => m.NotificationSettingsModal),
  asDialog,
);
const ContactsModal = lazyPart(() => import("~/features/contacts/ContactsModal").then((m) => m.ContactsModal), asDialog);
const JoinChannelModal = lazyPart(() => import("~/features/channels/ChannelForms").then((m) => m.JoinChannelModal), asDialog);
import type { useContacts } from "~/features/contacts/useContacts.client";
import type { PermissionState } from "~/features/notifications/notify";
import type { QuietHours } from "~/features/notify-rules/rules";
import type { UserSettings } from "~/lib/session-user";
import { WorldClockSettingsModal } from "~/features/world-clock/WorldClockSettings";
import { sanitizeCities } from "~/features/world-clock/world-clock";

export type DialogState =
  | { kind: "create" }
  | { kind: "join" }
  | { kind: "delete"; channel: Channel }
  | { kind: "leave"; channel: Channel }
  | { kind: "deleteAll" }
  | { kind: "clear"; channel: Channel }
  | { kind: "notifications" }
  | { kind: "worldClock" }
  | { kind: "contacts"; mode: "manage" | "select" }
  | { kind: "deleteMessage"; message: DecryptedMessage }
  | { kind: "removeMember"; member: ChannelMember }
  | { kind: "signOut" };

export interface DialogActions {
  create: (values: { name: string; password: string; sealed: boolean }) => void;
  join: (values: { channelId: string; password: string }) => void;
  remove: (channel: Channel, how: "delete" | "leave") => void;
  removeAll: () => void;
  clear: (channel: Channel) => void;
  /** `quiet`: the Do not disturb hours too, when the Notification Settings changed them. */
  saveSettings: (values: Partial<UserSettings>, quiet?: QuietHours) => void;
  requestPermission: () => void;
  deleteMessage: (message: DecryptedMessage) => void;
  removeMember: (member: ChannelMember) => void;
  signOut: () => void;
}

interface Props {
  dialog: DialogState | null;
  busy: boolean;
  error: string | null;
  close: () => void;
  actions: DialogActions;
  settings: UserSettings;
  account: { id: string; email: string; verified: boolean };
  permission: PermissionState;
  contacts: ReturnType<typeof useContacts>;
}

/** The workspace's dialogs (spec §2.5-§2.8, §5, §9): which one is open is the workspace's state. */
export function WorkspaceDialogs({ dialog, busy, error, close, actions, settings, account, permission, contacts }: Props) {
  if (!dialog) return null;
  const confirm = (title: string, message: string, confirmLabel: string, onConfirm: () => void) => (
    <ConfirmDialog
      title={title}
      message={message}
      confirmLabel={confirmLabel}
      busy={busy}
      error={error}
      onConfirm={onConfirm}
      onClose={close}
    />
  );
  switch (dialog.kind) {
    case "create":
      return <CreateChannelModal busy={busy} error={error} onSubmit={actions.create} onClose={close} />;
    case "join":
      return <JoinChannelModal busy={busy} error={error} onSubmit={actions.join} onClose={close} />;
    case "delete":
      return confirm(
        "Delete Channel",
        `Delete "${dialog.channel.name}" for everyone? All its messages will be removed. This cannot be undone.`,
        "Delete",
        () => actions.remove(dialog.channel, "delete"),
      );
    case "leave":
      if (dialog.channel.direct)
        return confirm(
          "Leave Conversation",
          `Leave "${dialog.channel.name}"? You will not be able to read what is sent after you leave unless someone adds you again.`,
          "Leave",
          () => actions.remove(dialog.channel, "leave"),
        );
      return confirm("Leave Channel", `Leave "${dialog.channel.name}"? You can join again with the channel ID and password.`, "Leave", () =>
        actions.remove(dialog.channel, "leave"),
      );
    case "deleteAll":
      return confirm(
        "Delete All Channels",
        "Channels you created will be deleted for everyone; channels you joined will be left. This cannot be undone.",
        "Delete All",
        actions.removeAll,
      );
    case "clear":
      return confirm(
        "Clear All Messages",
        `Delete every message in "${dialog.channel.name}" for everyone? This cannot be undone.`,
        "Clear Messages",
        () => actions.clear(dialog.channel),
      );
    case "deleteMessage":
      return confirm("Delete Message", "Delete this message for everyone? This cannot be undone.", "Delete", () =>
        actions.deleteMessage(dialog.message),
      );
    case "removeMember":
      return confirm(
        "Remove Member",
        `Remove ${dialog.member.username} from the channel? They lose access at once and cannot join again, with an invite or the password, until an admin lifts the ban.`,
        "Remove",
        () => actions.removeMember(dialog.member),
      );
    case "signOut":
      return confirm(
        "Sign out?",
        "Messages you have not sent yet stay on this device, sealed, and are sent when you sign in here again. You need your password to sign in again.",
        "Sign out",
        () => {
          close();
          actions.signOut();
        },
      );
    case "notifications":
      return (
        <NotificationSettingsModal
          settings={settings}
          account={account}
          permission={permission}
          busy={busy}
          error={error}
          onRequestPermission={actions.requestPermission}
          onSave={actions.saveSettings}
          onClose={close}
        />
      );
    case "worldClock":
      return (
        <WorldClockSettingsModal
          cities={sanitizeCities(settings.worldClockCities)}
          busy={busy}
          error={error}
          onSave={(cities) => actions.saveSettings({ worldClockCities: cities })}
          onClose={close}
        />
      );
    case "contacts":
      return (
        <ContactsModal
          mode={dialog.mode}
          contacts={contacts.contacts}
          selectedId={contacts.recipient?.id ?? null}
          error={contacts.error}
          busy={contacts.busy}
          onSave={contacts.save}
          onDelete={contacts.remove}
          onSelect={(contact) => {
            contacts.choose(contact);
            close();
          }}
          onClose={close}
        />
      );
  }
}
