// The page: registers the service worker (offline after the first visit), starts the worker
// once the service worker controls the page (so every asset is downloaded exactly once, through
// it), asks it to cache the rest (CMaps) when the converter is ready and the page is idle, and
// exposes window.glyphline for scripting. The UI itself is <glyphline-converter>.
import { deferStart, extractText, preload, status, GlyphlineError } from "./glyphline.js";
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

// <html data-offline="complete"> once every file of the site is in the cache (the tests wait
// for it), "partial" when some could not be fetched (offline, or the server lost one)
function cacheEverythingWhenIdle() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.addEventListener("message", ({ data }) => {
    if (data && data.type === "offline") document.documentElement.dataset.offline = data.missing ? "partial" : "complete";
  });
  const ask = async () => {
    const registration = await navigator.serviceWorker.ready;
    const target = navigator.serviceWorker.controller || registration.active;
    if (target) target.postMessage({ type: "cache-all" });
  };
  const idle = () => (window.requestIdleCallback ? requestIdleCallback(() => ask(), { timeout: 5000 }) : setTimeout(ask, 1000));
  const onStatus = () => {
    if (status.state !== "ready") return;
    status.removeEventListener("change", onStatus);
    idle();
  };
  status.addEventListener("change", onStatus);
  onStatus();
}

const controlled = serviceWorkerControl().catch((error) => console.warn("Glyphline: offline mode unavailable:", error));
deferStart(controlled); // a file dropped before then waits ("Starting…") instead of starting a second download
cacheEverythingWhenIdle();
controlled.finally(() => preload().catch(() => {}));
