import { useEffect, useState } from "react";
import type { SessionUser } from "~/lib/session-user";
import { acceptKeys, checkKeys } from "~/features/pins/pins.client";
import { senderProfiles } from "~/features/pins/profiles.client";
import { usePins } from "~/features/pins/usePins.client";

interface Props {
  user: SessionUser;
  channelId: string;
  /** The channel's members: their keys are pinned on first sight, or checked against the pins. */
  memberIds: readonly string[];
  /** Called once new keys are accepted: the held-back messages can be read again. */
  onAccepted: () => void;
}

/** "bob's security keys changed": shown in a channel where someone's messages are held back for that reason. */
export function KeyChangeNotice({ user, channelId, memberIds, onAccepted }: Props) {
  const { changed } = usePins();
  const [busy, setBusy] = useState("");
  const members = memberIds.join(",");
  useEffect(() => {
    const ids = members ? members.split(",") : [];
    if (ids.length === 0) return;
    senderProfiles(ids)
      .then((found) =>
        checkKeys(
          user.id,
          [...found.values()].flatMap((p) => (p ? [p.profile] : [])),
          channelId,
        ),
      )
      .catch((error) => console.warn("Members' keys could not be checked", error));
  }, [user.id, channelId, members]);
  const here = [...changed.values()].filter((c) => c.channels.has(channelId));
  if (here.length === 0) return null;
  return (
    <div className="key-change-notices">
      {here.map((change) => (
        <div key={change.userId} className="key-change-notice" role="alert">
          {change.reason === "changed" ? (
            <p>
              <strong>{change.username}&apos;s security keys changed</strong>. Their messages are held back until you accept the new keys.
              Compare your safety number with them first.
            </p>
          ) : (
            <p>
              <strong>{change.username}&apos;s security keys could not be checked</strong>: the keys you saved for them are missing or were
              replaced on the server. Their messages are held back until you accept the keys presented now. Compare your safety number with
              them first.
            </p>
          )}
          <button
            type="button"
            className="btn btn-small"
            aria-label={`Accept new keys of ${change.username}`}
            disabled={busy === change.userId}
            onClick={() => {
              setBusy(change.userId);
              acceptKeys(user.id, change)
                .then(onAccepted, (error) => console.warn("The new keys could not be accepted", error))
                .finally(() => setBusy(""));
            }}
          >
            Accept new keys
          </button>
        </div>
      ))}
    </div>
  );
}
