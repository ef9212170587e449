import { useMemo, useState } from "react";
import { setCsrfToken } from "~/lib/api.client";
import { sections } from "~/features/admin/sections";
import type { AdminSectionProps } from "~/features/admin/types";
import { isAdminRole, roleName } from "~/features/roles/roles";
import { useConsoleRole } from "~/features/admin/useConsoleRole";

export const REFUSED = "Only an administrator can open the admin console.";

/**
 * The console in place of its sections: why it shows nothing (`message`), and the way back. A member or
 * guest at /admin gets the refusal; a viewer whose session the server ended (deactivated, signed out
 * elsewhere), why, and "Sign in again". Never any data.
 */
function ConsoleWithout({ message, back }: { message: string; back: string }) {
  return (
    <main className="loading">
      <div className="auth-card">
        <h1>Admin console</h1>
        <p role="alert">{message}</p>
        <p>
          <a href="/">{back}</a>
        </p>
      </div>
    </main>
  );
}

export const ConsoleRefused = () => <ConsoleWithout message={REFUSED} back="Back to chat" />;

/**
 * The admin console (docs/decisions/0055-admin-console.md): one page with every section of
 * `sections.ts`, each a landmark named by its heading, reachable from the navigation at the top.
 */
export function AdminConsole({ csrfToken, ...props }: AdminSectionProps & { csrfToken: string; username: string }) {
  // in the browser, before the first call of any section (api.client is not on the server)
  useState(() => typeof window !== "undefined" && setCsrfToken(csrfToken));
  // (demoted while the console is open: the console's refusal, once the server refuses or the page is back in view)
  const { role, ended } = useConsoleRole(props.viewer);
  const viewer = useMemo(() => ({ id: props.viewer.id, role }), [props.viewer.id, role]);
  if (ended) return <ConsoleWithout message={ended} back="Sign in again" />;
  if (!isAdminRole(role)) return <ConsoleRefused />;
  return (
    <div className="admin-page">
      <header className="admin-header">
        <h1>Admin console</h1>
        <p className="admin-viewer">
          Signed in as {props.username} ({roleName(role)})
        </p>
        <a className="btn btn-small" href="/">
          Back to chat
        </a>
      </header>
      <nav className="admin-nav" aria-label="Console sections">
        <ul>
          {sections.map((s) => (
            <li key={s.id}>
              <a href={`#${s.id}`}>{s.label}</a>
            </li>
          ))}
        </ul>
      </nav>
      <main className="admin-main">
        {sections.map(({ id, label, component: Section }) => (
          <section key={id} id={id} className="admin-section" aria-labelledby={`${id}-heading`}>
            <h2 id={`${id}-heading`}>{label}</h2>
            <Section viewer={viewer} workspace={props.workspace} />
          </section>
        ))}
      </main>
    </div>
  );
}
