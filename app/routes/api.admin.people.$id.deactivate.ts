import type { ActionFunctionArgs } from "@remix-run/node";
import { changeStatus } from "~/features/deactivation/deactivation.server";

/** An administrator deactivates someone (ADR 0056): signed out everywhere, out of every conversation and call. */
export const action = (args: ActionFunctionArgs) => changeStatus(args, "deactivate");
