import { type ComponentProps } from "react";
import { lazyPart } from "~/ui/lazyPart";
import type { WorkspaceDialogs as Dialogs } from "~/features/workspace/WorkspaceDialogs";

// The dialogs (confirmations, forms, settings) load when one is first opened: not part of the first load.
const WorkspaceDialogs = lazyPart(() => import("~/features/workspace/WorkspaceDialogs").then((m) => m.WorkspaceDialogs), {
  whenFailed: "toast",
  close: (props) => props.close(),
});

/** The workspace's dialogs (WorkspaceDialogs.tsx), in their own chunk. */
export function LazyDialogs(props: ComponentProps<typeof Dialogs>) {
  if (!props.dialog) return null;
  return <WorkspaceDialogs {...props} />;
}
