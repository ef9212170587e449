/**
 * "Jump to latest" under the message list: back to the latest from a window back in history
 * (`onBackToLatest`), or down to what arrived while the reader was scrolled up ("Jump to latest (3)").
 */
export function JumpToLatest({
  hasNewer,
  missed,
  onBackToLatest,
  onDown,
}: {
  hasNewer: boolean;
  missed: number;
  onBackToLatest: () => void;
  onDown: () => void;
}) {
  if (hasNewer)
    return (
      <button type="button" className="btn btn-small jump-latest" onClick={onBackToLatest}>
        Jump to latest
      </button>
    );
  if (missed <= 0) return null;
  return (
    <button type="button" className="btn btn-small jump-latest" onClick={onDown}>
      Jump to latest ({missed})
    </button>
  );
}
