import type { ReactNode } from "react";

/**
 * One of the channel header's compact actions: an icon whose name (aria-label) is the action's
 * name as the specification gives it, shown as its tooltip too.
 */
export function HeaderButton(props: { icon: ReactNode; label: string; onClick: () => void; danger?: boolean }) {
  return (
    <button
      type="button"
      className={`btn btn-small header-icon chat-action${props.danger ? " btn-danger" : ""}`}
      aria-label={props.label}
      title={props.label}
      onClick={props.onClick}
    >
      {props.icon}
    </button>
  );
}
