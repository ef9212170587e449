import type { ActionFunctionArgs } from "@remix-run/node";
import { changeStatus } from "~/features/deactivation/deactivation.server";

/** An administrator gives a deactivated account back (ADR 0056): it signs in again, a member of nothing. */
export const action = (args: ActionFunctionArgs) => changeStatus(args, "reactivate");
