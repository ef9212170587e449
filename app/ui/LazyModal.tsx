import type { ComponentProps } from "react";
import { lazyPart } from "~/ui/lazyPart";
import type { Modal as ModalType } from "~/ui/Modal";

const Modal = lazyPart(() => import("~/ui/Modal").then((m) => m.Modal), { whenFailed: "toast" });

/** The Modal (focus trap, Esc, focus returned) for what the first screen does not show: loaded when first opened. */
export function LazyModal(props: ComponentProps<typeof ModalType>) {
  return <Modal {...props} />;
}
