import type { SessionUser } from "~/lib/session-user";
import { Modal } from "~/ui/Modal";
import { PasswordSection } from "~/features/password/PasswordSection";
import { DevicesSection } from "~/features/devices/DevicesSection";
import { PasskeysSection } from "~/features/passkeys/PasskeysSection";
import { AccountDataSections } from "~/features/account-data/AccountDataSections";
import { RecoveryKeySection } from "~/features/recovery/RecoveryKeySection";
import { AccountActivitySection } from "~/features/audit/AccountActivitySection";
import { BlockedSection } from "~/features/requests/BlockedSection";
import { ProfileSection } from "~/features/profile-cards/ProfileSection";

/**
 * Account settings (Menu > Account): one section per feature, each from its own folder (profile, password,
 * recovery key, passkeys, devices, account activity, blocked people, email, export, delete). Loaded when first opened.
 */
export default function AccountDialog({ user, onClose }: { user: SessionUser; onClose: () => void }) {
  return (
    <Modal title="Account" onClose={onClose}>
      <div className="account-sections">
        <p className="hint">
          Signed in as <strong>@{user.username}</strong>.
        </p>
        <ProfileSection user={user} />
        <PasswordSection user={user} />
        <RecoveryKeySection user={user} />
        <PasskeysSection user={user} />
        <DevicesSection />
        <AccountActivitySection />
        <BlockedSection />
        <AccountDataSections user={user} />
      </div>
    </Modal>
  );
}
