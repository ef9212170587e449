// Readable words for the audit log's action codes (pb_hooks and pocketbase/ append them; the codes
// stay visible next to the words). An unknown code reads as itself.

const WORDS: Record<string, string> = {
  "account.created": "Account created",
  "account.deleted": "Account deleted",
  "account.deactivated": "Account deactivated",
  "account.deactivated_by_provider": "Deactivated by the identity provider",
  "account.provider_refused_owner": "Refused by the identity provider (the owner stays active)",
  "sso.linked": "Single sign-on linked",
  "account.reactivated": "Account reactivated",
  "account.exported": "Account data exported",
  "audit.exported": "Audit log exported",
  "signin.succeeded": "Signed in",
  "signin.failed_burst": "Many failed sign-ins",
  "session.revoked": "Device signed out",
  "device.approved": "New device approved",
  "sessions.revoked": "All devices signed out",
  "passkey.added": "Passkey added",
  "passkey.removed": "Passkey removed",
  "recovery_key.created": "Recovery key created",
  "recovery_key.used": "Recovery key used",
  "password.changed": "Password changed",
  "password.reset": "Password reset",
  "email.changed": "Email address changed",
  "role.changed": "Role changed",
  "invite.created": "Invite created",
  "invite.used": "Invite used",
  "invite.revoked": "Invite revoked",
  // (a channel, a sealed channel or a direct conversation: the details name which)
  "member.removed": "Removed from a conversation",
  "ban.lifted": "Channel ban lifted",
  "channel_admin.changed": "Channel admin changed",
  "channel.created": "Channel created",
  "channel.deleted": "Channel deleted",
  "channel.password_changed": "Channel password changed",
  "settings.changed": "Settings changed",
  "mail.test_sent": "Test email",
  "reset_code.issued": "Reset code issued",
  "reset_code.used": "Reset code used",
  "retention.swept": "Old messages deleted (retention)",
};

/** The words for an action code ("Signed in" for "signin.succeeded"). */
export function actionWords(action: string): string {
  return Object.hasOwn(WORDS, action) ? WORDS[action] : action;
}

/** The console's action filter: families first ("signin." is every sign-in entry), then each known action. */
export const ACTION_FILTERS: { value: string; label: string }[] = [
  { value: "", label: "All actions" },
  { value: "signin.", label: "Sign-ins" },
  { value: "account.", label: "Accounts" },
  { value: "channel.", label: "Channels" },
  { value: "invite.", label: "Invites" },
  ...Object.entries(WORDS).map(([value, label]) => ({ value, label })),
];
