import type { ReactNode } from "react";

interface Props {
  icon: ReactNode;
  label: string;
  onClick: () => void;
  pressed?: boolean;
  disabled?: boolean;
  danger?: boolean;
}

/**
 * A small button with an icon and its text: on narrow screens only the icon shows; the text stays
 * the button's accessible name (aria-label) and its tooltip.
 */
export function ToolButton({ icon, label, onClick, pressed, disabled, danger }: Props) {
  return (
    <button
      type="button"
      className={`btn btn-small tool-button${danger ? " btn-danger" : ""}`}
      aria-pressed={pressed}
      onClick={onClick}
      disabled={disabled}
      title={label}
      aria-label={label}
    >
      {icon}
      <span className="tool-label">{label}</span>
    </button>
  );
}
