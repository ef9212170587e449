import { LockIcon } from "~/ui/icons";
/** Chat pane with no channel selected (spec §2.6). */
export function EmptyChat() {
  return (
    <section className="chat-empty" aria-label="No channel selected">
      <div className="chat-empty-mark" aria-hidden="true">
        <LockIcon size={56} />
      </div>
      <h2>Military grade encrypted chat for professionals</h2>
      <p>Because privacy matters.</p>
    </section>
  );
}
