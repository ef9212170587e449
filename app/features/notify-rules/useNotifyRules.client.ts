import { useSyncExternalStore } from "react";
import { rulesSnapshot, subscribeRules, type RulesState } from "~/features/notify-rules/rules.client";

/** The user's notification rules as this page holds them (loaded by the notifications hook). */
export function useNotifyRules(): RulesState {
  return useSyncExternalStore(subscribeRules, rulesSnapshot, rulesSnapshot);
}
