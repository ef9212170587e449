import {
  createContext,
  lazy,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
  type ComponentType,
  type ReactNode,
} from "react";
import { useWhenBackOnline } from "~/lib/useOnline";
import { ERROR_VISIBLE_MS, inToastDock } from "~/ui/Toast";

/** What a part that could not be fetched says (the network is away, or the server was updated since the page loaded). */
export const PART_FAILED = "This part of ChatCrypt could not be loaded. Check your connection and try again.";

/**
 * What a part shows when its chunk could not be fetched: "notice" (the default, for panels and
 * sections) says so where the part would be, with "Try again"; "toast" (for dialogs) says so in the
 * conversation's toast, which Esc and time dismiss too. "Dismiss" closes the part (`close`, by
 * default its `onClose`); a notice has it when the part can be closed, a toast always. A function
 * draws something else instead (text without its formatting, or PartFailedNotice with more
 * controls). Each tries again by itself when the browser is back online.
 */
export type WhenFailed<P> = "notice" | "toast" | ((props: P, retry: () => void) => ReactNode);

interface Options<P> {
  /** Shown while the chunk loads (nothing by default). */
  fallback?: ReactNode | ((props: P) => ReactNode);
  whenFailed?: WhenFailed<P>;
  /** How "Dismiss" closes a dialog that could not open ("toast"; by default its `onClose`). */
  close?: (props: P) => void;
}

/** The failed part's way to ask again (given to what it shows instead). */
const RetryContext = createContext<() => void>(() => undefined);

/**
 * A component in its own chunk, loaded when first shown, or earlier with `preload` (when the control
 * that shows it gets focus or the pointer, so that opening it does not wait). React.lazy would keep a
 * failed load for the page's life and throw it to the page's error screen; here a chunk that could not
 * be fetched takes nothing else down: the part says so (`whenFailed`), and the next attempt (its "Try
 * again", the network back, the part shown anew) fetches it afresh. The loaded component's own errors
 * still reach the page's error boundary.
 */
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>, options: Options<P> = {}) {
  type Loaded = { default: ComponentType<P> };
  function NotLoaded(props: P) {
    return <Failed props={props} options={options} retry={useContext(RetryContext)} />;
  }
  let pending: Promise<Loaded> | null = null;
  let failed = false;
  const fetchPart = () =>
    (pending ??= load().then(
      (component) => ({ default: component }),
      (error: unknown): Loaded => {
        console.warn("A part of the app could not be loaded", error);
        pending = null;
        failed = true;
        return { default: NotLoaded };
      },
    ));
  let current = lazy(fetchPart);
  /** After a failure (and nothing loading), the next render asks for the chunk again: once, however many parts retry. */
  const renew = () => {
    if (pending || !failed) return;
    failed = false;
    current = lazy(fetchPart);
  };

  function Part(props: P) {
    // a part shown anew after a failure tries again; so does one asked to (its attempts re-render it)
    const [, setAttempts] = useState(() => (renew(), 0));
    const retry = useCallback(() => {
      renew();
      setAttempts((n) => n + 1);
    }, []);
    const fallback = typeof options.fallback === "function" ? options.fallback(props) : (options.fallback ?? null);
    // (React.lazy's type holds back a ref this generic component never passes)
    const Shown = current as unknown as ComponentType<P>;
    return (
      <RetryContext.Provider value={retry}>
        <Suspense fallback={fallback}>
          <Shown {...props} />
        </Suspense>
      </RetryContext.Provider>
    );
  }
  Part.preload = () => void fetchPart();
  return Part;
}

function Failed<P extends object>({ props, options, retry }: { props: P; options: Options<P>; retry: () => void }) {
  const [dismissed, setDismissed] = useState(false);
  const whenFailed = options.whenFailed ?? "notice";
  if (typeof whenFailed === "function") return <RetryWhenOnline retry={retry}>{whenFailed(props, retry)}</RetryWhenOnline>;
  const close = options.close ? () => options.close?.(props) : (props as { onClose?: () => void }).onClose;
  const toast = whenFailed === "toast";
  const dismiss = () => {
    setDismissed(true);
    close?.();
  };
  if (dismissed) return null;
  const notice = (
    <PartFailedNotice retry={retry} className={toast ? "toast toast-error" : undefined}>
      {toast && <DismissLater dismiss={dismiss} />}
      {(toast || close) && (
        <button type="button" className="icon-button" aria-label="Dismiss" onClick={dismiss}>
          ×
        </button>
      )}
    </PartFailedNotice>
  );
  return toast ? inToastDock(notice) : notice;
}

/** A dialog's toast goes as the workspace's error toasts do (after ERROR_VISIBLE_MS), and with Esc, as the dialog would have. */
function DismissLater({ dismiss }: { dismiss: () => void }) {
  const latest = useRef(dismiss);
  latest.current = dismiss;
  useEffect(() => {
    const timer = setTimeout(() => latest.current(), ERROR_VISIBLE_MS);
    const onKey = (event: KeyboardEvent) => event.key === "Escape" && latest.current();
    window.addEventListener("keydown", onKey);
    return () => {
      clearTimeout(timer);
      window.removeEventListener("keydown", onKey);
    };
  }, []);
  return null;
}

/** The notice of a part that could not be loaded, with "Try again" (and what `children` add); it tries again by itself once the browser is back online. */
export function PartFailedNotice({ retry, className, children }: { retry: () => void; className?: string; children?: ReactNode }) {
  return (
    <RetryWhenOnline retry={retry}>
      <div className={className ? `${className} part-failed` : "part-failed"} role="alert">
        <span>{PART_FAILED}</span>
        <button type="button" className="btn btn-small" onClick={retry}>
          Try again
        </button>
        {children}
      </div>
    </RetryWhenOnline>
  );
}

function RetryWhenOnline({ retry, children }: { retry: () => void; children: ReactNode }) {
  useWhenBackOnline(retry);
  return children;
}
