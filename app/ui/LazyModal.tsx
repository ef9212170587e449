import { lazy, Suspense, type ComponentProps } from "react";
import type { Modal as ModalType } from "~/ui/Modal";

const Modal = lazy(() => import("~/ui/Modal").then((m) => ({ default: m.Modal })));

/** The Modal (focus trap, Esc, focus returned) for what the first screen does not show: loaded when first opened. */
export function LazyModal(props: ComponentProps<typeof ModalType>) {
  return (
    <Suspense fallback={null}>
      <Modal {...props} />
    </Suspense>
  );
}
