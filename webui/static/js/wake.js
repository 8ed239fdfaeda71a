// The screen stays on while a match is being scored (Screen Wake Lock), and the lock is taken again when the
// page comes back (the browser lets it go whenever the page is hidden). Browsers without it: nothing happens.

let wanted = false;
let lock = null;

async function take() {
  if (!wanted || lock || !("wakeLock" in navigator) || document.visibilityState !== "visible") return;
  try {
    lock = await navigator.wakeLock.request("screen");
    document.documentElement.dataset.awake = "";
    lock.addEventListener("release", () => {
      lock = null;
      delete document.documentElement.dataset.awake;
    });
  } catch {
    lock = null; // refused (battery saver, no permission): the screen follows its own settings
  }
}

/** Keeps the screen on while `on`. */
export function keepAwake(on) {
  wanted = on;
  if (on) take();
  else if (lock) lock.release().catch(() => {});
}

document.addEventListener("visibilitychange", take);
