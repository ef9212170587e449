import { useEffect, type ReactNode } from "react";
import type { SessionUser } from "~/lib/session-user";
import { Sidebar, UnreadBadges } from "~/features/channels/Sidebar";
import type { useChannels } from "~/features/channels/useChannels.client";
import { DirectSection } from "~/features/direct/DirectSection";
import type { useDirect } from "~/features/direct/useDirect.client";
import type { useUnread } from "~/features/unread/useUnread.client";
import type { useDrawer } from "~/features/workspace/useDrawer.client";
import type { DialogState } from "~/features/workspace/WorkspaceDialogs";
import { useStanding } from "~/features/roles/standing.client";

interface Props {
  user: SessionUser;
  channels: ReturnType<typeof useChannels>;
  direct: ReturnType<typeof useDirect>;
  unread: ReturnType<typeof useUnread>;
  drawer: ReturnType<typeof useDrawer>;
  openDialog: (dialog: DialogState) => void;
  footer: ReactNode;
}

/** The sidebar of the signed-in screen: the channels, then the direct conversations; opening one closes the drawer (phones). */
export function WorkspaceSidebar({ user, channels, direct, unread, drawer, openDialog, footer }: Props) {
  // A conversation opened another way (made or joined in a dialog, a new message, an address): the drawer
  // closes too, or it would cover the conversation.
  const { selectedId } = channels;
  const { close } = drawer;
  const standing = useStanding(user);
  useEffect(() => {
    if (selectedId) close(false);
  }, [selectedId, close]);
  return (
    <Sidebar
      open={drawer.open}
      channels={channels.channels}
      selectedId={channels.selectedId}
      userId={user.id}
      onSelect={(c) => {
        channels.setSelectedId(c.id);
        drawer.close(false);
      }}
      onCreate={standing.canCreateChannels ? () => openDialog({ kind: "create" }) : undefined}
      onJoin={standing.role === "guest" ? undefined : () => openDialog({ kind: "join" })}
      onDelete={(channel) => openDialog({ kind: "delete", channel })}
      onLeave={(channel) => openDialog({ kind: "leave", channel })}
      onDeleteAll={() => openDialog({ kind: "deleteAll" })}
      unread={unread.counts}
      after={
        <DirectSection
          conversations={channels.channels?.filter((c) => c.direct) ?? []}
          selectedId={channels.selectedId}
          onSelect={(c) => (channels.setSelectedId(c.id), drawer.close(false))}
          onAccepted={(id) => channels.openReady(id, "joined").then(() => drawer.close(false))}
          onNew={direct.openNew}
          onLeave={(channel) => openDialog({ kind: "leave", channel })}
          badges={(c) => <UnreadBadges counts={unread.counts.get(c.id)} />}
        />
      }
      footer={footer}
    />
  );
}
