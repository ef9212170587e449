import { useId, useState } from "react";
import { Modal } from "~/ui/Modal";
import { copyToClipboard } from "~/ui/clipboard.client";
import { useInviteQuestion } from "~/features/invites/ask.client";
import { EXPIRY_CHOICES, USES_CHOICES, type Expiry, type Uses } from "~/features/invites/types";

/** Says what revoking an invite can and cannot do, where a link with the channel's password is shared. */
export function RevokeNote({ sealed }: { sealed: boolean }) {
  return (
    <p className="hint">
      Revoking an invite does not take back the channel&apos;s password from people who already saw it.
      {sealed
        ? " This channel is sealed: nothing more is needed, its group is the access. Removing someone takes their devices out of it."
        : " Remove a member to keep them out (a removed member cannot join again, with an invite or the password), and a channel admin can change the channel password: what is sent afterwards needs the new one."}
    </p>
  );
}

/** The question the page is asking about an invite, if any (ask.client.ts). */
export function InviteDialogs() {
  const question = useInviteQuestion();
  if (!question) return null;
  switch (question.kind) {
    case "join":
      return (
        <Modal title={question.title} onClose={() => question.answer(false)}>
          <p>Nothing is joined until you choose Join.</p>
          <div className="modal-actions">
            <button type="button" className="btn" onClick={() => question.answer(false)}>
              Cancel
            </button>
            <button type="button" className="btn btn-primary" onClick={() => question.answer(true)}>
              Join
            </button>
          </div>
        </Modal>
      );
    case "refused":
      return (
        <Modal title="Invite" onClose={() => question.answer(true)}>
          <p role="alert">{question.text}</p>
          <div className="modal-actions">
            <button type="button" className="btn btn-primary" onClick={() => question.answer(true)}>
              Close
            </button>
          </div>
        </Modal>
      );
    case "create":
      return <CreateInvite key={question.channelName} question={question} />;
  }
}

function CreateInvite({ question }: { question: Extract<ReturnType<typeof useInviteQuestion>, { kind: "create" }> }) {
  const [expires, setExpires] = useState<Expiry>("7d");
  const [maxUses, setMaxUses] = useState<Uses>(0);
  return (
    <Modal title={`Invite to #${question.channelName}`} onClose={() => question.answer(null)}>
      <ChannelIdField channelId={question.channelId} />
      <form
        onSubmit={(event) => {
          event.preventDefault();
          question.answer({ expires, maxUses });
        }}
      >
        <Choice label="Expires" value={expires} choices={EXPIRY_CHOICES} onChange={(v) => setExpires(v as Expiry)} />
        <Choice label="Uses" value={String(maxUses)} choices={USES_CHOICES} onChange={(v) => setMaxUses(Number(v) as Uses)} />
        <RevokeNote sealed={question.sealed} />
        <div className="modal-actions">
          <button type="button" className="btn" onClick={() => question.answer(null)}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary">
            Copy invite link
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** The channel's ID (what Join Channel asks for, with the password) and its copy button, in the invite dialog. */
function ChannelIdField({ channelId }: { channelId: string }) {
  const id = useId();
  const [status, setStatus] = useState("");
  const copy = async () =>
    setStatus(
      (await copyToClipboard(channelId)) ? "Channel ID copied to the clipboard." : "Copying was refused: select the ID and copy it.",
    );
  return (
    <div className="field">
      <label htmlFor={id}>Channel ID</label>
      <div className="invite-id-row">
        <input id={id} readOnly value={channelId} />
        <button type="button" className="btn btn-small" onClick={() => void copy()}>
          Copy channel ID
        </button>
      </div>
      <p className="hint" role="status">
        {status}
      </p>
    </div>
  );
}

function Choice(props: {
  label: string;
  value: string;
  choices: readonly { value: string | number; label: string }[];
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <select id={id} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        {props.choices.map((c) => (
          <option key={c.value} value={String(c.value)}>
            {c.label}
          </option>
        ))}
      </select>
    </div>
  );
}
