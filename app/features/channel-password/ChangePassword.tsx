import { useState } from "react";
import { Modal } from "~/ui/Modal";
import { Field, FormActions, FormError } from "~/ui/Form";
import { ApiError } from "~/lib/api.client";
import { messageOf } from "~/lib/errors";
import { MIN_CHANNEL_PASSWORD, changeChannelPassword, generatePassword } from "~/features/channel-password/change.client";

/**
 * For a classic channel's admins (members panel): "Change the channel password" (ADR 0060). New messages use
 * the new password; members keep reading earlier ones; old invite links and the old password no longer join.
 */
export function ChangePassword({ userId, channelId }: { userId: string; channelId: string }) {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const start = () => {
    setPassword(generatePassword());
    setError(null);
    setDone(null);
    setOpen(true);
  };
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const { invitesRevoked } = await changeChannelPassword(userId, channelId, password);
      setOpen(false);
      setDone(
        `The channel password was changed.${invitesRevoked > 0 ? ` ${invitesRevoked === 1 ? "1 invite was" : `${invitesRevoked} invites were`} revoked.` : ""}`,
      );
    } catch (failure) {
      setError(
        failure instanceof ApiError ? failure.message : messageOf(failure, "The channel password could not be changed. Please try again."),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button type="button" className="btn btn-small" onClick={start}>
        Change the channel password
      </button>
      {done && (
        <p className="hint" role="status">
          {done}
        </p>
      )}
      {open && (
        <Modal title="Change the channel password" onClose={() => !busy && setOpen(false)}>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              void submit();
            }}
          >
            <p>
              New messages are sealed with the new password. Current members keep reading earlier messages and get the new password through
              their keyring; removed members, the old password and old invite links no longer get in. The channel&apos;s invites are
              revoked: new invites carry the new password.
            </p>
            <Field
              label="New channel password"
              type="text"
              autoComplete="off"
              spellCheck={false}
              required
              minLength={MIN_CHANNEL_PASSWORD}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            <FormError message={error} />
            <FormActions busy={busy} submitLabel="Change password" onCancel={() => setOpen(false)} />
          </form>
        </Modal>
      )}
    </>
  );
}
