/**
 * A signed-out visit to the console goes to the sign-in page with this mark (`/?console`, and the
 * section asked for as its fragment); signing in there goes back to the console.
 */
export const CONSOLE_SIGN_IN = "/?console";

/** After a sign-in on the page the console sent someone to: back to the console (true), else nothing. */
export function backToConsole(): boolean {
  const url = new URL(window.location.href);
  if (url.pathname !== "/" || !url.searchParams.has("console")) return false;
  window.location.replace(`/admin${url.hash}`);
  return true;
}
