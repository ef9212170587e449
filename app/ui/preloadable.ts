import { lazy, type ComponentType } from "react";

/**
 * A component loaded in its own chunk when first shown, whose chunk can be asked for earlier (when
 * the control that shows it gets focus or the pointer), so that opening it does not wait or flash.
 */
export function preloadable<P>(load: () => Promise<ComponentType<P>>) {
  let pending: Promise<{ default: ComponentType<P> }> | null = null;
  const preload = () => {
    pending ??= load().then((component) => ({ default: component }));
    pending.catch(() => (pending = null));
    return pending;
  };
  return { Component: lazy(preload), preload };
}
