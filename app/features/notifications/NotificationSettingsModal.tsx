import { useId, useRef, useState, type FormEvent } from "react";
import { Check, FormActions, FormError } from "~/ui/Form";
import { Modal } from "~/ui/Modal";
import type { UserSettings } from "~/lib/session-user";
import { normalizeKeywords, type PermissionState } from "~/features/notifications/notify";
import { PushToggle } from "~/features/push/PushToggle";
import { EmailVerification } from "~/features/notifications/EmailVerification";
import type { QuietHours } from "~/features/notify-rules/rules";
import { QuietHoursFields, quietHoursProblem, useQuietHoursDraft } from "~/features/notify-rules/QuietHoursFields";
import { PauseFields } from "~/features/notify-rules/PauseFields";

type NotificationValues = Pick<
  UserSettings,
  "desktopNotificationsEnabled" | "emailNotificationsEnabled" | "emailIncludeContent" | "notifyKeywords" | "sendTypingIndicators"
>;

interface Props {
  settings: UserSettings;
  /** The account's address and whether its owner verified it (email notifications need that). */
  account: { id: string; email: string; verified: boolean };
  permission: PermissionState;
  busy: boolean;
  error: string | null;
  onRequestPermission: () => void;
  /** `quiet`: the Do not disturb hours, when they changed. */
  onSave: (values: NotificationValues, quiet?: QuietHours) => void;
  onClose: () => void;
}

/**
 * Notification Settings (spec §2.5), opened from the Menu: desktop and email notifications, keywords, Do
 * not disturb and the pause. What notifies in each conversation is its own choice (the bell in its
 * header): all messages, mentions and keywords, or nothing; by default all in direct messages and
 * mentions and keywords in channels.
 */
export function NotificationSettingsModal({ settings, account, permission, busy, error, onRequestPermission, onSave, onClose }: Props) {
  const [values, setValues] = useState<NotificationValues>({
    desktopNotificationsEnabled: settings.desktopNotificationsEnabled,
    emailNotificationsEnabled: settings.emailNotificationsEnabled,
    emailIncludeContent: settings.emailIncludeContent,
    notifyKeywords: settings.notifyKeywords,
    sendTypingIndicators: settings.sendTypingIndicators,
  });
  const [keyword, setKeyword] = useState("");
  const [keywordError, setKeywordError] = useState<string | null>(null);
  const keywordId = useId();
  const quiet = useQuietHoursDraft();
  const [quietError, setQuietError] = useState<string | null>(null);

  const toggle = (field: keyof Omit<NotificationValues, "notifyKeywords">) => () => setValues((v) => ({ ...v, [field]: !v[field] }));

  function addKeyword() {
    const next = keyword.trim();
    if (!next) return setKeywordError("Type a keyword first.");
    if (values.notifyKeywords.some((k) => k.toLowerCase() === next.toLowerCase()))
      return setKeywordError("That keyword is already in the list.");
    setKeywordError(null);
    setValues((v) => ({ ...v, notifyKeywords: [...v.notifyKeywords, next] }));
    setKeyword("");
  }

  // A keyword removed by keyboard: focus goes to the next one's Remove (or the one before), else to the field.
  const keywordInput = useRef<HTMLInputElement>(null);
  function removeKeyword(k: string, at: number) {
    setValues((v) => ({ ...v, notifyKeywords: v.notifyKeywords.filter((x) => x !== k) }));
    requestAnimationFrame(() => {
      const left = [...(keywordInput.current?.closest("fieldset")?.querySelectorAll<HTMLButtonElement>(".chip button") ?? [])];
      (left[Math.min(at, left.length - 1)] ?? keywordInput.current)?.focus();
    });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const problem = quietHoursProblem(quiet.value);
    setQuietError(problem);
    if (problem) return;
    onSave({ ...values, notifyKeywords: normalizeKeywords(values.notifyKeywords) }, quiet.changed());
  }

  return (
    <Modal title="Notification Settings" onClose={onClose}>
      <p className="hint">
        These settings are for your account. What notifies in a conversation is its own choice (the bell in its header): by default every
        direct message, and mentions of you and your keywords in channels.
      </p>
      <form onSubmit={submit}>
        <fieldset className="settings-group">
          <legend>Desktop</legend>
          <Check
            label="Desktop notifications"
            checked={values.desktopNotificationsEnabled}
            onChange={toggle("desktopNotificationsEnabled")}
          />
          {permission === "default" && (
            <button type="button" className="btn btn-small" onClick={onRequestPermission}>
              Allow notifications in this browser
            </button>
          )}
          {permission === "granted" && <p className="hint">This browser may show notifications.</p>}
          {permission === "denied" && (
            <p className="form-error" role="alert">
              Browser notifications are blocked. Please enable them in your browser settings.
            </p>
          )}
          {permission === "unsupported" && <p className="hint">This browser cannot show notifications.</p>}
          <PushToggle userId={account.id} />
        </fieldset>
        <fieldset className="settings-group">
          <legend>Email</legend>
          <Check label="Email notifications" checked={values.emailNotificationsEnabled} onChange={toggle("emailNotificationsEnabled")} />
          {values.emailNotificationsEnabled && <EmailVerification email={account.email} verified={account.verified} />}
          <Check
            label="Include the message text in emails"
            checked={values.emailIncludeContent}
            onChange={toggle("emailIncludeContent")}
            disabled={!values.emailNotificationsEnabled}
          />
          <p className="hint">
            Off by default: emails then say only who wrote, and in which channel (a direct message&apos;s mail names no conversation), never
            what.
          </p>
          <p className="hint">
            With no ChatCrypt page of yours open, emails still come for what your rules notify of, at most one per conversation every 10
            minutes, and never with the message text: only an open page can read it.
          </p>
        </fieldset>
        <fieldset className="settings-group">
          <legend>Keywords</legend>
          <p className="hint">A message with one of your keywords counts like a mention of you.</p>
          <label htmlFor={keywordId}>New keyword</label>
          <div className="inline-field">
            <input
              ref={keywordInput}
              id={keywordId}
              value={keyword}
              maxLength={100}
              onChange={(e) => setKeyword(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === "Enter") {
                  e.preventDefault();
                  addKeyword();
                }
              }}
            />
            <button type="button" className="btn btn-small" onClick={addKeyword}>
              Add keyword
            </button>
          </div>
          {keywordError && <p className="form-error">{keywordError}</p>}
          {values.notifyKeywords.length > 0 ? (
            <ul className="chips" aria-label="Keyword list">
              {values.notifyKeywords.map((k, at) => (
                <li key={k} className="chip">
                  {k}
                  <button type="button" className="icon-button" aria-label={`Remove keyword ${k}`} onClick={() => removeKeyword(k, at)}>
                    ×
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
        </fieldset>
        <QuietHoursFields value={quiet.value} onChange={quiet.onChange} />
        <FormError message={quietError} />
        <PauseFields />
        <fieldset className="settings-group">
          <legend>Typing</legend>
          <Check label="Send typing indicators" checked={values.sendTypingIndicators} onChange={toggle("sendTypingIndicators")} />
          <p className="hint">Others see &quot;you are typing…&quot; while you write. Nothing about it is stored.</p>
        </fieldset>
        <FormError message={error} />
        <FormActions busy={busy} submitLabel="Save" onCancel={onClose} />
      </form>
    </Modal>
  );
}
