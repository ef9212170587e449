/** Focuses a landmark that is not focusable by itself (without making it a tab stop); whether it took focus. */
export function focusRegion(region: HTMLElement): boolean {
  if (region.tabIndex < 0 && !region.hasAttribute("tabindex")) region.setAttribute("tabindex", "-1");
  region.focus();
  return document.activeElement === region;
}
