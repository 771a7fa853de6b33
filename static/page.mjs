// The page: registers the service worker (offline after the first visit), starts the worker
// once the service worker controls the page (so every asset is downloaded exactly once), and
// exposes window.glyphline for scripting. The UI itself is <glyphline-converter>.
import { extractText, preload, status, GlyphlineError } from "./glyphline.js";
import "./converter.js";
import { chooseLanguage, translator } from "./i18n.js";

const language = chooseLanguage(navigator.languages || [navigator.language]);
const t = translator(language);
document.documentElement.lang = language;
document.title = `Glyphline: ${t("title")}`;
for (const node of document.querySelectorAll("[data-text]")) node.textContent = t(node.dataset.text);

window.glyphline = { extractText, preload, status, GlyphlineError };

async function serviceWorkerControl() {
  if (!("serviceWorker" in navigator)) return; // plain http on a LAN address: no offline, still works
  const registration = await navigator.serviceWorker.register("./sw.js");
  if (navigator.serviceWorker.controller) return;
  await new Promise((resolve) => {
    navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true });
    const installing = registration.installing || registration.waiting;
    if (installing) {
      installing.addEventListener("statechange", () => { if (installing.state === "redundant") resolve(); });
    } else {
      resolve(); // active but not controlling (a hard reload): start without it
    }
  });
}

serviceWorkerControl()
  .catch((error) => console.warn("Glyphline: offline mode unavailable:", error))
  .finally(() => preload().catch(() => {}));
