/** Told once after signing in: how many times someone got the account's password wrong (or was refused) since the last sign-in. */
export function FailedSignInsNotice({ count, onDismiss }: { count: number; onDismiss: () => void }) {
  return (
    <div className="toast toast-error" role="alert">
      <span>
        {count} failed sign-in {count === 1 ? "attempt" : "attempts"} since your last visit
      </span>
      <button type="button" className="icon-button" aria-label="Dismiss" onClick={onDismiss}>
        ×
      </button>
    </div>
  );
}
