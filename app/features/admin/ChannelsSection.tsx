import { useState } from "react";
import { listChannels } from "~/features/admin/admin.client";
import type { AdminChannel } from "~/features/admin/types";
import { LoadFailed, useLoad } from "~/ui/useLoad";

/** Bytes as people read them: "0 B", "12.3 KB", "4.5 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** A channel's name for the console: only a classic channel's is the server's to show. */
const titleOf = (c: AdminChannel) => (c.kind === "channel" ? `#${c.name}` : c.kind === "sealed" ? "Sealed channel" : "Direct conversation");

/** Channels: every channel and conversation with its member count and storage (encrypted messages and attachments). */
export function ChannelsSection() {
  const [channels, setChannels] = useState<AdminChannel[] | null>(null);
  const { error, retry } = useLoad(async () => setChannels((await listChannels()).channels));
  if (channels === null && error) return <LoadFailed message={error} onRetry={retry} />;
  if (channels === null) return <p className="hint">Loading channels...</p>;
  if (channels.length === 0) return <p className="hint">No channels yet.</p>;
  return (
    <div className="admin-table-wrap">
      <table className="admin-table">
        <caption>Channels and conversations: names of sealed channels and direct conversations stay with their members.</caption>
        <thead>
          <tr>
            <th scope="col">Channel</th>
            <th scope="col">Members</th>
            <th scope="col">Storage</th>
          </tr>
        </thead>
        <tbody>
          {channels.map((c) => (
            <tr key={c.id}>
              <th scope="row">{titleOf(c)}</th>
              <td>{c.members}</td>
              <td>{formatBytes(c.bytes)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
