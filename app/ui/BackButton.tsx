/**
 * A side panel's way back to the conversation on a phone, where the panel fills the screen (CSS shows
 * it only there; wider screens close the panel with its ×).
 */
export function BackButton({ onBack }: { onBack: () => void }) {
  return (
    <button type="button" className="btn btn-small panel-back" onClick={onBack}>
      <span aria-hidden="true">← </span>Back
    </button>
  );
}
