import type { SessionUser } from "~/lib/session-user";
import { DeleteAccountSection } from "~/features/account-data/DeleteAccountSection";
import { EmailSection } from "~/features/account-data/EmailSection";
import { YourDataSection } from "~/features/account-data/YourDataSection";

/** Menu > Account: the account's email address, its data, and deleting it (ADR 29). */
export function AccountDataSections({ user }: { user: SessionUser }) {
  return (
    <>
      <EmailSection user={user} />
      <YourDataSection user={user} />
      <DeleteAccountSection user={user} />
    </>
  );
}
