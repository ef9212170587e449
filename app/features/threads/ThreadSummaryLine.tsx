import { useEffect, useState } from "react";
import { formatTime } from "~/features/messages/text";
import { senderProfiles } from "~/conversation/senders/profiles.client";
import { useThreadSummary } from "~/features/threads/summaries.client";

/** Under a thread's root: "3 replies", the last one's time and who wrote them; opens the thread. */
export function ThreadSummaryLine({ rootId, onOpen }: { rootId: string; onOpen: () => void }) {
  const summary = useThreadSummary(rootId);
  const [names, setNames] = useState<string[]>([]);
  const people = summary?.people.join(",") ?? "";
  useEffect(() => {
    if (!people) return;
    let current = true;
    senderProfiles(people.split(",")).then(
      (found) => current && setNames([...found.values()].flatMap((p) => (p ? [p.profile.username] : []))),
      () => undefined,
    );
    return () => void (current = false);
  }, [people]);
  if (!summary) return null;
  const count = `${summary.replies} ${summary.replies === 1 ? "reply" : "replies"}`;
  return (
    <p className="thread-summary">
      <button type="button" className="link-button" onClick={onOpen} aria-label={`${count}: open the thread`}>
        {count}
      </button>
      <span className="thread-summary-meta">
        {" "}
        Last reply {formatTime(summary.last)}
        {names.length > 0 && ` · ${names.join(", ")}`}
      </span>
    </p>
  );
}
