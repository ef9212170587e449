/**
 * A one-to-one whose other person left it (or was deactivated and is back) and started it again: the
 * server made them a member, but only this page can put them back on the conversation's list, with the
 * user's consent (ADR 0098). Until then nothing written here reaches them.
 */
export function LetBackIn(props: { name: string; busy: boolean; onLetIn: () => void }) {
  return (
    <div className="let-back-in" role="group" aria-labelledby="let-back-in-text">
      <p id="let-back-in-text" className="request-text">
        {`${props.name} started this conversation again: nothing written here reaches them until you let them back in.`}
      </p>
      <button type="button" className="btn btn-small btn-primary" disabled={props.busy} onClick={props.onLetIn}>
        {props.busy ? "Letting them back in..." : `Let ${props.name} back in`}
      </button>
    </div>
  );
}
