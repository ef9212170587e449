/**
 * A one-to-one whose other person left it (or was deactivated and is back) and started it again: the
 * server made them a member, but only this page can put them back on the conversation's list, with the
 * user's consent (ADR 0098). Until then nothing written here reaches them.
 */
export function LetBackIn(props: { name: string; busy: boolean; onLetIn: () => void }) {
  return (
    <div className="direct-offer" role="group" aria-labelledby="let-back-in-text">
      <p id="let-back-in-text" className="request-text">
        {`${props.name} started this conversation again: nothing written here reaches them until you let them back in.`}
      </p>
      <button type="button" className="btn btn-small btn-primary" disabled={props.busy} onClick={props.onLetIn}>
        {props.busy ? "Letting them back in..." : `Let ${props.name} back in`}
      </button>
    </div>
  );
}

/**
 * A one-to-one this device cannot open, whose list of participants or devices it cannot check: after both
 * people reset their accounts without their recovery keys, or one did before the other's devices ever saw
 * their keys, nobody can (ADR 0098). Either may start it afresh. `why`: what this device found, shown
 * for as long as the offer stands.
 */
export function StartAfresh(props: { name: string; why: string; busy: boolean; onStart: () => void }) {
  return (
    <div className="direct-offer" role="group" aria-labelledby="start-afresh-text" aria-describedby="start-afresh-why">
      <p id="start-afresh-why" className="request-text">
        {props.why}
      </p>
      <p id="start-afresh-text" className="request-text">
        {`If ${props.name} cannot open this conversation either (after one of you, or both, reset an account without a recovery key), start it afresh to write to each other again.`}
      </p>
      <button type="button" className="btn btn-small btn-primary" disabled={props.busy} onClick={props.onStart}>
        {props.busy ? "Starting afresh..." : "Start afresh"}
      </button>
    </div>
  );
}
