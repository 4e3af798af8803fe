// When a sign-in form's validation is fetched (useLazySchema's `when`): at the first sign of use,
// not right after hydration, so a visitor who only looks at the page does not download it.

/** What counts as starting to use a form: every way to reach a field (mouse, touch, keyboard, autofill's focus). */
const INTERACTION_EVENTS = ["focusin", "pointerdown", "keydown", "touchstart"] as const;

/** Runs `begin` at the first interaction with the document (at once if a form field already has the focus); answers the cleanup. */
export function onFirstInteraction(begin: () => void): () => void {
  const active = document.activeElement;
  if (active && active !== document.body && active.closest("form")) {
    begin();
    return () => undefined;
  }
  const fire = () => {
    stop();
    begin();
  };
  const stop = () => INTERACTION_EVENTS.forEach((type) => document.removeEventListener(type, fire, true));
  INTERACTION_EVENTS.forEach((type) => document.addEventListener(type, fire, { capture: true, passive: true }));
  return stop;
}
