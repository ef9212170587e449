/** Room kept between a dropdown panel and the edge of what is visible around it (px). */
const MARGIN = 8;

/** The part of the screen where `from` can be seen: the window, cut by every ancestor that clips or scrolls. */
function visibleBounds(from: HTMLElement) {
  const bounds = { top: 0, left: 0, bottom: window.innerHeight, right: window.innerWidth };
  for (let el: HTMLElement | null = from; el && el !== document.body; el = el.parentElement) {
    const style = getComputedStyle(el);
    if (style.overflowX === "visible" && style.overflowY === "visible") continue;
    const rect = el.getBoundingClientRect();
    bounds.top = Math.max(bounds.top, rect.top);
    bounds.left = Math.max(bounds.left, rect.left);
    bounds.bottom = Math.min(bounds.bottom, rect.bottom);
    bounds.right = Math.min(bounds.right, rect.right);
  }
  return bounds;
}

/**
 * A dropdown panel, just opened below its button (the stylesheet's place), placed where it can be seen:
 * above the button when it does not fit below and there is more room above (the last message of a
 * list, right over the composer), scrolling within the room there is when it fits neither way, and
 * aligned to the button's other side when it would cross the left or right edge.
 */
export function placePanel(panel: HTMLElement) {
  const anchor = panel.parentElement;
  if (!anchor) return;
  const bounds = visibleBounds(anchor);
  const box = panel.getBoundingClientRect();
  const button = anchor.getBoundingClientRect();
  if (box.bottom > bounds.bottom - MARGIN) {
    const below = bounds.bottom - button.bottom - MARGIN;
    const above = button.top - bounds.top - MARGIN;
    if (above > below) Object.assign(panel.style, { top: "auto", bottom: "calc(100% + 0.3rem)" });
    const room = Math.max(above, below);
    if (box.height > room) Object.assign(panel.style, { maxHeight: `${Math.max(room, 120)}px`, overflowY: "auto" });
  }
  if (box.right > bounds.right - MARGIN) Object.assign(panel.style, { left: "auto", right: "0" });
  else if (box.left < bounds.left + MARGIN) Object.assign(panel.style, { left: "0", right: "auto" });
}
