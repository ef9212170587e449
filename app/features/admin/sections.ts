import type { ComponentType } from "react";
import type { AdminSectionProps } from "~/features/admin/types";
import { PeopleSection } from "~/features/admin/PeopleSection";
import { ChannelsSection } from "~/features/admin/ChannelsSection";
import { MailSection } from "~/features/admin/MailSection";
import { InvitesSection } from "~/features/invites/InvitesSection";
import { AuditSection } from "~/features/audit/AuditSection";
import { RetentionSection } from "~/features/retention/RetentionSection";
import { SsoSection } from "~/features/sso/SsoSection";
import { FilesSection } from "~/features/files/FilesSection";
import { HealthSection } from "~/features/health/HealthSection";

export interface AdminSection {
  /** The section's anchor in /admin (#people). */
  id: string;
  /** Its heading and its link in the console's navigation. */
  label: string;
  component: ComponentType<AdminSectionProps>;
}

/** The admin console's sections, in order: /admin renders every entry (adding a section is one line). */
export const sections: AdminSection[] = [
  { id: "people", label: "People", component: PeopleSection },
  { id: "invites", label: "Invites", component: InvitesSection },
  { id: "channels", label: "Channels", component: ChannelsSection },
  { id: "mail", label: "Mail", component: MailSection },
  { id: "retention", label: "Retention", component: RetentionSection },
  { id: "files", label: "Files", component: FilesSection },
  { id: "sso", label: "Single sign-on", component: SsoSection },
  { id: "audit", label: "Audit log", component: AuditSection },
  { id: "health", label: "Health", component: HealthSection },
];
