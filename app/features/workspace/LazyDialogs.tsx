import { lazy, Suspense, type ComponentProps } from "react";
import type { WorkspaceDialogs as Dialogs } from "~/features/workspace/WorkspaceDialogs";

// The dialogs (confirmations, forms, settings) load when one is first opened: not part of the first load.
const WorkspaceDialogs = lazy(() => import("~/features/workspace/WorkspaceDialogs").then((m) => ({ default: m.WorkspaceDialogs })));

/** The workspace's dialogs (WorkspaceDialogs.tsx), in their own chunk. */
export function LazyDialogs(props: ComponentProps<typeof Dialogs>) {
  if (!props.dialog) return null;
  return (
    <Suspense fallback={null}>
      <WorkspaceDialogs {...props} />
    </Suspense>
  );
}
