// <glyphline-converter>: the whole drop-zone UI (queue, options, progress, preview, download).
//
//   <script type="module" src="static/converter.js"></script>
//   <glyphline-converter></glyphline-converter>
//
// Attributes: `page-drop` accepts files dropped anywhere on the page; `preload` starts the
// worker as soon as the element is on the page; `sample="url"` adds a "Try a sample" button;
// `lang="de"` overrides the browser language.
import { extractText, ocrPagesToRender, preload, status, GlyphlineError, MODES, EXTENSIONS, DEFAULT_OPTIONS as ENGINE_DEFAULTS } from "./glyphline.js";
import { chooseLanguage, formatBytes, formatFileSize, formatNumber, translator } from "./i18n.js";
import { downloadZip } from "../vendor/client-zip.mjs";
import { DOWNLOAD_BYTES, OCR_LANGUAGES } from "./ocr.mjs";

const STYLESHEET = new URL("./converter.css", import.meta.url).href;
const OPTIONS_KEY = "glyphline.options";
const AUTO_OCR_KEY = "glyphline.autoOcr"; // set: scans are recognised without asking, in this language
const OCR_LANGUAGE_KEY = "glyphline.ocrLanguage"; // the language last chosen for OCR

// "eng+deu" when every part is a language the site ships, else null (a stored value from an older site)
function knownOcrLanguages(languages) {
  const parts = String(languages || "").split("+").filter(Boolean);
  return parts.length && parts.every((code) => OCR_LANGUAGES.includes(code)) ? parts.join("+") : null;
}

// the bytes OCR in these languages fetches the first time: tesseract.js and its core, each model,
// and pdf.js when pages must be rendered first
function ocrDownloadBytes(languages, withRenderer) {
  const models = languages.split("+").reduce((sum, code) => sum + (DOWNLOAD_BYTES[code] || 0), 0);
  return DOWNLOAD_BYTES.base + models + (withRenderer ? DOWNLOAD_BYTES.renderer || 0 : 0);
}
// the options this form offers, with the engine's defaults; every mode the engine has is offered
const FORM_OPTIONS = ["mode", "markers", "dehyphenate", "annotations", "bom"];
const DEFAULT_OPTIONS = { ...Object.fromEntries(FORM_OPTIONS.map((name) => [name, ENGINE_DEFAULTS[name]])), pages: "" };
const FORM_MODES = MODES;
// a download's media type by its extension (the engine names the extension of each mode)
const ZIP_NAME = "glyphline.zip";
const FINAL = ["done", "scan", "error", "cancelled"]; // a job in one of these states can be cleared or retried
const MEDIA_TYPES = { ".json": "application/json", ".md": "text/markdown;charset=utf-8", ".txt": "text/plain;charset=utf-8" };
const PREVIEW_CHARS = 200_000; // a textarea with more than this gets sluggish on a phone
const PAGE_LIST_WORDS = 6; // the page list names each page by its first few words…
const PAGE_LIST_CHARS = 40; // …cut to what fits a phone's select
const PAGE_RANGE = /^\s*\d+\s*(-\s*\d*\s*)?(,\s*\d+\s*(-\s*\d*\s*)?)*$/;
// a finger, not a mouse, or a screen too narrow for dragging: "drop anywhere" means nothing there
const NO_DRAG_MEDIA = "(pointer: coarse), (max-width: 480px)";
// an indeterminate <progress> is an endless animation: with reduced motion it stays still at 0
const REDUCED_MOTION = window.matchMedia("(prefers-reduced-motion: reduce)");

function indeterminate(bar) {
  if (REDUCED_MOTION.matches) bar.value = 0; else bar.removeAttribute("value");
}

function loadOptions() {
  try {
    const saved = JSON.parse(localStorage.getItem(OPTIONS_KEY) || "{}");
    const options = { ...DEFAULT_OPTIONS };
    for (const key of Object.keys(DEFAULT_OPTIONS)) {
      if (typeof saved[key] === typeof DEFAULT_OPTIONS[key]) options[key] = saved[key];
    }
    if (!FORM_MODES.includes(options.mode)) options.mode = DEFAULT_OPTIONS.mode;
    return options;
  } catch {
    return { ...DEFAULT_OPTIONS };
  }
}

function saveOptions(options) {
  try { localStorage.setItem(OPTIONS_KEY, JSON.stringify(options)); } catch { /* private mode: not remembered */ }
}

// the page's own settings (not engine options): a string, or null to forget it
function storedItem(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

function storeItem(key, value) {
  try {
    if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, value);
  } catch { /* private mode: not remembered */ }
}

function element(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "text") node.textContent = value;
    else if (value === true) node.setAttribute(name, "");
    else if (value !== false && value != null) node.setAttribute(name, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function extensionOf(mode) {
  return (EXTENSIONS && EXTENSIONS[mode]) || ".txt";
}

/** The download's name: the PDF's name with the mode's extension. */
function outputName(fileName, mode) {
  const stem = String(fileName || "document").replace(/\.pdf$/i, "") || "document";
  return `${stem}${extensionOf(mode)}`;
}

function mediaType(mode) {
  return MEDIA_TYPES[extensionOf(mode)] || "text/plain;charset=utf-8";
}

/** A page's text as shown and copied: without its form feed; a JSON page indented to be read. */
function displayText(page, mode) {
  const text = page.text.replace(/\f/g, "");
  if (mode !== "json") return text;
  try { return JSON.stringify(JSON.parse(text), null, 2); } catch { return text; }
}

/** A block's text with every occurrence of `query` (case-insensitive) in a <mark>. */
function highlighted(node, text, query) {
  if (!query) { node.textContent = text; return node; }
  const lower = text.toLocaleLowerCase();
  const needle = query.toLocaleLowerCase();
  let from = 0;
  for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + needle.length)) {
    node.append(text.slice(from, at), element("mark", { class: "hit", text: text.slice(at, at + needle.length) }));
    from = at + needle.length;
  }
  node.append(text.slice(from));
  return node;
}

/** How often `query` occurs in `text` (case-insensitive, not overlapping). */
function countHits(text, query) {
  if (!query) return 0;
  const lower = text.toLocaleLowerCase();
  const needle = query.toLocaleLowerCase();
  let count = 0;
  for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + needle.length)) count += 1;
  return count;
}

/** A page's text as elements, each with dir="auto" so Arabic and Hebrew read right to left:
 * reflow paragraphs (one line each), the lines of preserve (blank ones kept as spacing), or the
 * whole grid of a layout page (one direction per page: its columns must stay aligned). */
function previewBlocks(text, mode, query = "") {
  const body = text.replace(/\n+$/, "");
  if (!body.trim()) return [];
  const block = (line) => highlighted(element("p", { class: "block", dir: "auto" }), line, query);
  if (mode === "layout" || mode === "json") return [block(body)];
  const lines = body.split("\n");
  const kept = mode === "preserve" ? lines : lines.filter((line) => line.trim());
  return kept.map(block);
}

/** The first words of a page, for the page list. */
function pageStart(text) {
  const words = text.replace(/\f/g, "").trim().split(/\s+/).slice(0, PAGE_LIST_WORDS).join(" ");
  return words.length > PAGE_LIST_CHARS ? `${words.slice(0, PAGE_LIST_CHARS)}…` : words;
}

let jobCounter = 0;

class GlyphlineConverter extends HTMLElement {
  constructor() {
    super();
    this.jobs = [];
    this.options = loadOptions();
    this.root = this.attachShadow({ mode: "open" });
    this.onStatus = () => this.renderStatus();
    this.onPageDragOver = (event) => this.dragOver(event);
    this.onPageDrop = (event) => this.drop(event);
    this.onDragEnter = (event) => this.dragEnter(event);
    this.onDragLeave = (event) => this.dragLeave(event);
    this.onDragEnd = () => this.showOverlay(false);
    this.onPointerMedia = () => this.renderDropText();
    this.dragDepth = 0;
  }

  connectedCallback() {
    this.language = this.getAttribute("lang") || chooseLanguage(navigator.languages || [navigator.language]);
    this.t = translator(this.language);
    this.render();
    status.addEventListener("change", this.onStatus);
    this.renderStatus();
    // without page-drop the element itself takes drops (its overlay covers it: the drag events
    // of the overlay's own elements reach the same listeners, so the overlay does not flicker)
    const dropTarget = this.hasAttribute("page-drop") ? document : this;
    this.dropTarget = dropTarget;
    dropTarget.addEventListener("dragover", this.onPageDragOver);
    dropTarget.addEventListener("drop", this.onPageDrop);
    dropTarget.addEventListener("dragenter", this.onDragEnter);
    dropTarget.addEventListener("dragleave", this.onDragLeave);
    document.addEventListener("dragend", this.onDragEnd);
    this.pointerMedia = window.matchMedia(NO_DRAG_MEDIA);
    this.pointerMedia.addEventListener("change", this.onPointerMedia);
    this.renderDropText();
    if (this.hasAttribute("preload")) preload().catch(() => {});
  }

  disconnectedCallback() {
    status.removeEventListener("change", this.onStatus);
    if (this.dropTarget) {
      this.dropTarget.removeEventListener("dragover", this.onPageDragOver);
      this.dropTarget.removeEventListener("drop", this.onPageDrop);
      this.dropTarget.removeEventListener("dragenter", this.onDragEnter);
      this.dropTarget.removeEventListener("dragleave", this.onDragLeave);
    }
    document.removeEventListener("dragend", this.onDragEnd);
    if (this.pointerMedia) this.pointerMedia.removeEventListener("change", this.onPointerMedia);
  }

  // ------------------------------------------------------------------ layout

  render() {
    const t = this.t;
    this.root.replaceChildren();
    this.root.append(element("link", { rel: "stylesheet", href: STYLESHEET }));
    // the sizer holds the longest loading sentence, invisibly, in the same grid cell as the
    // text, and the bar keeps its room when hidden: "Ready." replacing them shifts nothing below
    const loader = element("div", { class: "loader", role: "status", id: "loader" }, [
      element("div", { class: "loader-lines" }, [
        element("p", { id: "loader-text" }),
        element("p", { class: "loader-sizer", "aria-hidden": "true", text: this.longestLoadingText() }),
      ]),
      element("progress", { id: "loader-progress", max: "1", "aria-labelledby": "loader-text" }),
    ]);
    const fileInput = element("input", {
      type: "file", id: "file", accept: "application/pdf,.pdf", multiple: true, class: "visually-hidden",
    });
    fileInput.addEventListener("change", () => {
      this.addFiles([...fileInput.files]);
      fileInput.value = "";
    });
    const chooser = element("label", { for: "file", class: "button primary", text: t("choose") });
    const actions = [fileInput, chooser]; // input first: its focus ring is drawn on the label (CSS +)
    if (this.getAttribute("sample")) {
      const sample = element("button", { type: "button", id: "sample", class: "button", text: t("sample") });
      sample.addEventListener("click", () => this.convertSample());
      actions.push(sample);
    }
    const dropzone = element("section", { class: "dropzone", "aria-labelledby": "drop-text" }, [
      element("img", { class: "drop-icon", src: new URL("./icon.svg", import.meta.url).href, alt: "" }),
      element("p", { id: "drop-text", text: t("dropHere") }),
      element("div", { class: "actions" }, actions),
    ]);
    // shown while files are dragged over the page (without page-drop: over this element)
    const overlay = element("div", {
      id: "drop-overlay", class: this.hasAttribute("page-drop") ? "drop-overlay page" : "drop-overlay",
      role: "region", "aria-label": t("dropOverlay"), hidden: true,
    }, [element("p", { text: t("dropOverlay") })]);
    // two columns on a wide screen (drop zone and options beside the files), one on a phone
    const layout = element("div", { id: "layout", class: "layout", "data-empty": "true" }, [
      element("div", { class: "side" }, [dropzone, this.renderOptions()]),
      element("div", { class: "results" }, [this.renderQueueBar(), element("ol", { id: "queue", class: "queue", "aria-label": t("queueLabel") })]),
    ]);
    this.root.append(loader, layout, overlay,
      element("div", { id: "live", class: "visually-hidden", "aria-live": "polite", role: "status" }));
  }

  /** Above the queue: download all as one ZIP, clear the finished files, clear all. */
  renderQueueBar() {
    const t = this.t;
    const downloadAll = element("button", { type: "button", id: "download-all", class: "button primary", text: t("downloadAll") });
    const clearDone = element("button", { type: "button", id: "clear-done", class: "button", text: t("clearDone") });
    const clearAll = element("button", { type: "button", id: "clear-all", class: "button", text: t("clearAll") });
    downloadAll.addEventListener("click", () => this.downloadAll());
    clearDone.addEventListener("click", () => this.clear((job) => FINAL.includes(job.view.item.dataset.state)));
    clearAll.addEventListener("click", () => this.clear(() => true));
    return element("div", { id: "queue-bar", class: "queue-bar actions", role: "group", "aria-label": t("queueLabel"), hidden: true },
      [downloadAll, clearDone, clearAll]);
  }

  /** The queue bar follows the jobs: shown with any, "Download all" with a finished result. */
  updateQueueBar() {
    const bar = this.root.getElementById("queue-bar");
    if (!bar) return;
    bar.hidden = this.jobs.length === 0;
    this.root.getElementById("layout").dataset.empty = String(this.jobs.length === 0); // no files: the drop zone alone, as the hero
    this.root.getElementById("download-all").disabled = !this.jobs.some((job) => job.view.item.dataset.state === "done");
    this.root.getElementById("clear-done").disabled = !this.jobs.some((job) => FINAL.includes(job.view.item.dataset.state));
  }

  renderOptions() {
    const t = this.t;
    const modes = element("fieldset", {}, [element("legend", { text: t("modeLegend") })]);
    for (const mode of FORM_MODES) {
      const radio = element("input", { type: "radio", name: "mode", value: mode, id: `mode-${mode}`, checked: this.options.mode === mode });
      radio.addEventListener("change", () => this.setOption("mode", mode));
      modes.append(element("div", { class: "choice" }, [radio, element("label", { for: `mode-${mode}`, text: this.modeLabel(mode) })]));
    }
    const checks = element("fieldset", { class: "checks" });
    for (const name of FORM_OPTIONS.filter((option) => option !== "mode")) {
      const box = element("input", { type: "checkbox", id: name, checked: this.options[name] });
      box.addEventListener("change", () => this.setOption(name, box.checked));
      checks.append(element("div", { class: "choice" }, [box, element("label", { for: name, text: t(name) })]));
    }
    checks.append(this.renderOcrOption());
    // the hint is said once, below the field (a placeholder repeating it would say it twice)
    const pages = element("input", { type: "text", id: "pages", inputmode: "numeric", autocomplete: "off", value: this.options.pages, "aria-describedby": "pages-hint" });
    pages.addEventListener("change", () => this.setOption("pages", pages.value.trim()));
    const range = element("div", { class: "range" }, [
      element("label", { for: "pages", text: t("pages") }), pages,
      element("span", { id: "pages-hint", class: "hint", text: t("pagesHint") }),
    ]);
    return element("details", { class: "options", id: "options" }, [
      element("summary", { text: t("optionsTitle") }), element("div", { class: "option-grid" }, [modes, checks, range]),
    ]);
  }

  /** A mode's label; a mode this page has no words for yet is named by its own name. */
  modeLabel(mode) {
    const key = `modes.${mode}`;
    const label = this.t(key);
    return label === key ? `${mode.charAt(0).toUpperCase()}${mode.slice(1)} (${extensionOf(mode)})` : label;
  }

  setOption(name, value) {
    this.options = { ...this.options, [name]: value };
    saveOptions(this.options);
    for (const job of this.jobs) this.updateRetry(job); // results stay; each offers a re-run
  }

  loadingText(done, total, stage) {
    const t = this.t;
    const bytes = total
      ? t("loadingBytes", { done: formatBytes(this.language, done), total: formatBytes(this.language, total) })
      : t("loadingRuntime");
    return stage ? `${bytes} ${t(`loadingStage.${stage}`)}.` : bytes;
  }

  longestLoadingText() {
    const candidates = ["runtime", "packages", "engine"].map((stage) => this.loadingText(88.8e6, 88.8e6, stage));
    return candidates.reduce((longest, text) => (text.length > longest.length ? text : longest), "");
  }

  renderStatus() {
    const t = this.t;
    const text = this.root.getElementById("loader-text");
    const bar = this.root.getElementById("loader-progress");
    const loader = this.root.getElementById("loader");
    if (!text) return;
    loader.dataset.state = status.state;
    if (status.state === "loading" || status.state === "idle") {
      // the real bytes of the real files, counted by the worker as they stream in
      text.textContent = this.loadingText(status.done, status.total, status.stage);
      if (status.total) bar.value = Math.min(1, status.done / status.total); else indeterminate(bar);
      bar.dataset.hidden = "false";
    } else if (status.state === "ready") {
      text.textContent = t("ready");
      bar.dataset.hidden = "true";
    } else {
      text.textContent = t("loadFailed", { message: status.message || "" });
      bar.dataset.hidden = "true";
    }
    // files dropped during start-up say "Starting…" until the converter is ready
    const waitingText = status.state === "ready" ? t("waiting") : t("reading");
    for (const job of this.jobs) {
      if (job.view.item.dataset.state === "waiting") job.view.status.textContent = waitingText;
    }
  }

  renderDropText() {
    const t = this.t;
    const text = this.root.getElementById("drop-text");
    if (text) text.textContent = this.pointerMedia && this.pointerMedia.matches ? t("pickHere") : t("dropHere");
  }

  announce(message) {
    const live = this.root.getElementById("live");
    live.textContent = message;
  }

  // ------------------------------------------------------------------ input

  dragOver(event) {
    if (event.dataTransfer && [...event.dataTransfer.types].includes("Files")) {
      event.preventDefault();
      event.dataTransfer.dropEffect = "copy";
    }
  }

  // dragenter/dragleave fire for every element crossed: count them, the overlay goes at zero
  dragEnter(event) {
    if (!event.dataTransfer || ![...event.dataTransfer.types].includes("Files")) return;
    this.dragDepth += 1;
    this.showOverlay(true);
  }

  dragLeave(event) {
    if (!this.dragDepth) return;
    this.dragDepth -= 1;
    if (this.dragDepth === 0) this.showOverlay(false);
  }

  showOverlay(shown) {
    if (!shown) this.dragDepth = 0;
    const overlay = this.root.getElementById("drop-overlay");
    if (overlay) overlay.hidden = !shown;
  }

  drop(event) {
    this.showOverlay(false);
    if (!event.dataTransfer || !event.dataTransfer.files.length) return;
    event.preventDefault();
    this.addFiles([...event.dataTransfer.files]);
  }

  async convertSample() {
    const url = new URL(this.getAttribute("sample"), document.baseURI);
    const response = await fetch(url);
    const blob = await response.blob();
    this.addFiles([new File([blob], url.pathname.split("/").pop() || "sample.pdf", { type: "application/pdf" })]);
  }

  addFiles(files) {
    for (const file of files) { // anything dropped is tried: a non-PDF gets its own sentence
      const job = this.createJob(file);
      this.jobs.push(job);
      this.root.getElementById("queue").append(job.view.item);
      this.start(job);
    }
    this.updateQueueBar();
  }

  /** Removes one file from the queue (cancelling it first); the focus goes to its neighbour. */
  remove(job, moveFocus = true) {
    job.removed = true;
    if (job.controller) job.controller.abort();
    const index = this.jobs.indexOf(job);
    if (index >= 0) this.jobs.splice(index, 1);
    job.view.item.remove();
    this.updateQueueBar();
    if (!moveFocus) return;
    const neighbour = this.jobs[Math.min(index, this.jobs.length - 1)];
    if (neighbour) neighbour.view.item.focus();
    else this.root.getElementById("file").focus();
  }

  clear(which) {
    const chosen = this.jobs.filter(which);
    for (const job of chosen) this.remove(job, false);
    this.announce(this.t("cleared", { count: formatNumber(this.language, chosen.length) }));
    const first = this.jobs[0];
    if (first) first.view.item.focus(); else this.root.getElementById("file").focus();
  }

  /** Every finished result in one ZIP (client-zip, stored entries), each under its download name. */
  async downloadAll() {
    const used = new Map();
    const files = [];
    for (const job of this.jobs) {
      if (job.view.item.dataset.state !== "done" || !job.result) continue;
      let name = outputName(job.file.name, job.mode);
      const seen = used.get(name) || 0;
      used.set(name, seen + 1);
      if (seen) name = name.replace(/(\.[^.]+)?$/, (extension) => ` (${seen + 1})${extension}`); // two "a.pdf": a.txt, a (2).txt
      files.push({ name, input: job.result.text, lastModified: new Date() });
    }
    if (!files.length) return;
    const blob = await downloadZip(files).blob();
    this.save(new Blob([blob], { type: "application/zip" }), ZIP_NAME);
  }

  /** Retry after a cancel or an error; a finished file offers a re-run when the options changed since. */
  updateRetry(job) {
    const t = this.t;
    const state = job.view.item.dataset.state;
    const changed = job.options && JSON.stringify(job.options) !== JSON.stringify(this.options);
    const offer = ["error", "cancelled"].includes(state) || (["done", "scan"].includes(state) && changed);
    job.view.retry.hidden = !offer;
    job.view.retry.textContent = ["done", "scan"].includes(state) ? t("rerun") : t("retry");
  }

  // ------------------------------------------------------------------ one file

  createJob(file) {
    const t = this.t;
    const id = `job-${++jobCounter}`;
    const view = {};
    view.status = element("p", { class: "status", id: `${id}-status`, text: t("waiting") });
    view.progress = element("progress", { class: "progress", max: "1", value: "0", "aria-labelledby": `${id}-status` });
    view.cancel = element("button", { type: "button", class: "button cancel", text: t("cancel") });
    view.retry = element("button", { type: "button", class: "button retry", hidden: true });
    view.remove = element("button", { type: "button", class: "button remove", text: t("remove"), "aria-describedby": `${id}-name` });
    view.banner = element("p", { class: "banner scan", role: "alert", hidden: true });
    view.error = element("p", { class: "banner error", role: "alert", hidden: true });
    view.passwordInput = element("input", { type: "password", id: `${id}-password`, autocomplete: "off" });
    view.passwordMessage = element("p", { class: "banner password-message", role: "alert" });
    view.passwordForm = element("form", { class: "password", hidden: true }, [
      view.passwordMessage,
      element("label", { for: `${id}-password`, text: t("passwordLabel", { name: file.name }) }),
      element("div", { class: "actions" }, [view.passwordInput, element("button", { type: "submit", class: "button primary", text: t("passwordSubmit") })]),
    ]);
    // the technical sentence behind an error's kind, for those who want it
    view.errorDetail = element("pre", { class: "detail" });
    view.errorDetails = element("details", { class: "error-details", hidden: true }, [element("summary", { text: t("details") }), view.errorDetail]);
    view.counts = element("p", { class: "counts" });
    view.warnings = element("ul", { class: "warnings" });
    view.warningsSummary = element("summary");
    view.warningDetail = element("pre", { class: "detail" });
    view.warningsBox = element("details", { class: "warnings-box", hidden: true }, [
      view.warningsSummary, view.warnings,
      element("details", { class: "notice-details" }, [element("summary", { text: t("details") }), view.warningDetail]),
    ]);
    view.download = element("button", { type: "button", class: "button primary download", text: t("download", { name: outputName(file.name, this.options.mode) }) });
    view.copy = element("button", { type: "button", class: "button copy", text: t("copyAll") });
    view.copyPage = element("button", { type: "button", class: "button copy-page", hidden: true, text: t("copyPage", { number: 1 }) });
    view.copyStatus = element("span", { class: "copy-status", role: "status" });
    // the layout inspector (./inspector.mjs, loaded when first opened) shows the current page's boxes
    view.inspect = element("button", { type: "button", class: "button inspect", text: t("inspector.open"), "aria-expanded": "false" });
    view.inspectorSlot = element("div", { class: "inspector-slot", hidden: true });
    // the page view: previous/next, a page number, a list of the pages ("All pages" first)
    view.previous = element("button", { type: "button", class: "button previous", text: t("previousPage") });
    view.next = element("button", { type: "button", class: "button next", text: t("nextPage") });
    view.pageInput = element("input", { type: "number", id: `${id}-page`, class: "page-number", min: "1", inputmode: "numeric" });
    view.pageOf = element("span", { class: "page-of" });
    view.pageList = element("select", { id: `${id}-pages`, class: "page-list" });
    view.pager = element("nav", { class: "pager", "aria-label": t("pagesNav", { name: file.name }) }, [
      view.previous,
      element("span", { class: "page-field" }, [element("label", { for: `${id}-page`, text: t("pageNumber") }), view.pageInput, view.pageOf]),
      view.next,
      element("span", { class: "page-field" }, [element("label", { for: `${id}-pages`, class: "visually-hidden", text: t("pageList") }), view.pageList]),
    ]);
    view.search = element("input", { type: "search", id: `${id}-search`, class: "search", autocomplete: "off", "aria-describedby": `${id}-hits` });
    view.hits = element("span", { class: "hits", id: `${id}-hits`, role: "status" });
    view.searchBox = element("div", { class: "search-box", role: "search" }, [
      element("label", { for: `${id}-search`, text: t("searchLabel") }), view.search, view.hits,
    ]);
    view.previewNote = element("p", { class: "hint", hidden: true });
    // one section per page under a "Page N" label, each block with dir="auto" (Arabic and
    // Hebrew read right to left); focusable so the keyboard can scroll it
    view.preview = element("div", { class: "preview", role: "region", tabindex: "0", "aria-label": t("preview", { name: file.name }) });
    view.result = element("div", { class: "result", hidden: true }, [
      view.counts, element("div", { class: "actions" }, [view.download, view.copy, view.copyPage, view.copyStatus]),
      view.warningsBox, element("div", { class: "toolbar" }, [view.pager, view.searchBox, view.inspect]), view.inspectorSlot,
      view.previewNote, view.preview,
    ]);
    // tabindex -1: focus comes back here after Cancel hides the button that had it
    view.item = element("li", { class: "job", "data-state": "waiting", id, tabindex: "-1", "aria-labelledby": `${id}-name` }, [
      element("div", { class: "head" }, [
        element("h2", { class: "name", id: `${id}-name`, text: file.name }),
        element("span", { class: "size", text: formatFileSize(this.language, file.size) }),
      ]),
      element("div", { class: "line" }, [view.status, element("div", { class: "job-actions" }, [view.cancel, view.retry, view.remove])]),
      view.progress,
      view.banner, view.error, view.errorDetails, view.passwordForm, view.result,
    ]);
    // page: the page shown alone, 0 for all pages; query: the search text
    const job = { file, view, password: "", controller: null, result: null, cancelClicked: false, page: 0, query: "", hit: -1 };
    view.cancel.addEventListener("click", () => {
      job.cancelClicked = true;
      if (job.controller) job.controller.abort();
    });
    view.passwordForm.addEventListener("submit", (event) => {
      event.preventDefault();
      job.password = view.passwordInput.value;
      job.passwordTried = true;
      this.start(job);
    });
    view.download.addEventListener("click", () => this.download(job));
    view.remove.addEventListener("click", () => this.remove(job));
    view.retry.addEventListener("click", () => {
      job.password = job.password || "";
      this.start(job);
      view.cancel.focus(); // the retry button is gone: Cancel takes its place
    });
    view.copy.addEventListener("click", () => this.copy(job, job.result.text));
    view.copyPage.addEventListener("click", () => {
      const page = job.result.pages.find((candidate) => candidate.number === job.page);
      if (page) this.copy(job, displayText(page, job.mode));
    });
    view.inspect.addEventListener("click", () => (job.inspector && !view.inspectorSlot.hidden ? this.closeInspector(job) : this.openInspector(job)));
    view.previous.addEventListener("click", () => this.stepPage(job, -1));
    view.next.addEventListener("click", () => this.stepPage(job, +1));
    view.pageInput.addEventListener("change", () => {
      const number = Number(view.pageInput.value);
      const known = job.result.pages.some((page) => page.number === number);
      view.pageInput.setAttribute("aria-invalid", known ? "false" : "true");
      if (known) this.showPage(job, number);
    });
    view.pageList.addEventListener("change", () => this.showPage(job, Number(view.pageList.value)));
    view.search.addEventListener("input", () => { job.query = view.search.value; this.refreshPreview(job); });
    view.search.addEventListener("keydown", (event) => {
      if (event.key === "Enter") { event.preventDefault(); this.nextHit(job, event.shiftKey ? -1 : 1); }
    });
    return job;
  }

  setState(job, state) {
    job.view.item.dataset.state = state;
    job.view.cancel.hidden = !["waiting", "running"].includes(state);
    job.view.progress.hidden = !["waiting", "running"].includes(state);
    this.updateRetry(job);
    this.updateQueueBar();
  }

  async start(job) {
    const t = this.t;
    const view = job.view;
    // a re-run keeps the last result in view until the new one replaces it
    for (const part of [view.banner, view.error, view.errorDetails, view.passwordForm]) part.hidden = true;
    if (!job.result) view.result.hidden = true;
    const options = { ...this.options };
    job.options = options;
    if (!job.result) job.mode = options.mode;
    if (options.pages && !PAGE_RANGE.test(options.pages)) {
      this.fail(job, "bad-options", "");
      return;
    }
    this.setState(job, "waiting");
    view.status.textContent = job.ocr ? t("ocrPreparing") : status.state === "ready" ? t("waiting") : t("reading");
    indeterminate(view.progress);
    job.controller = new AbortController();
    let announcedStart = false;
    try {
      const result = await extractText(job.file, {
        mode: options.mode,
        pages: options.pages || null,
        markers: options.markers,
        pageBreaks: true,
        dehyphenate: options.dehyphenate,
        annotations: options.annotations,
        bom: options.bom,
        password: job.password,
        ocr: job.ocr || undefined,
        onOcrProgress: (progress) => this.showOcrProgress(job, progress),
        signal: job.controller.signal,
        onProgress: ({ page, pages }) => {
          if (!announcedStart) { this.announce(t("announceStart", { name: job.file.name })); announcedStart = true; }
          this.setState(job, "running");
          view.status.textContent = t("progress", { page: formatNumber(this.language, page), pages: formatNumber(this.language, pages) });
          view.progress.max = pages;
          view.progress.value = page;
        },
      });
      if (job.removed) return;
      this.show(job, result);
    } catch (error) {
      if (job.removed) return;
      if (error && error.name === "AbortError" && this.ocrCancelled(job)) {
        // the result before OCR is back, with its offer
      } else if (error && error.name === "AbortError") {
        // a cancelled re-run leaves the previous result as it was
        this.setState(job, job.result && !view.result.hidden ? "done" : "cancelled");
        view.status.textContent = t("cancelled");
        this.announce(`${job.file.name}: ${t("cancelled")}`);
        // the Cancel button is gone: the focus goes to the file's card, not to the page's start
        if (job.cancelClicked) view.item.focus();
        job.cancelClicked = false;
      } else if (error instanceof GlyphlineError && error.kind === "password") {
        this.askPassword(job);
      } else if (error instanceof GlyphlineError) {
        this.fail(job, error.kind, error.message);
      } else {
        this.fail(job, "failed", String(error && error.message || error));
      }
    }
  }

  // "Recognising page 3 of 12": the page's ordinal among those recognised (the bar counts pages done)
  showOcrProgress(job, { page, pages }) {
    const lang = this.language;
    this.setState(job, "running");
    job.view.status.textContent = this.t("ocrProgress", { page: formatNumber(lang, page), pages: formatNumber(lang, pages) });
    job.view.progress.max = pages;
    job.view.progress.value = page - 1;
  }

  // a language added in package.json needs no words here: the browser names it (Intl), else its code
  ocrLanguageName(code) {
    const key = `ocrLanguages.${code}`;
    if (this.t(key) !== key) return this.t(key);
    try { return new Intl.DisplayNames([this.language], { type: "language" }).of(code) || code; } catch { return code; }
  }

  // OCR cancelled: the result it started from comes back with its banner and offer (not offered
  // automatically again for this file); false when there was no OCR to cancel
  ocrCancelled(job) {
    if (!job.ocr || !job.result) return false;
    job.ocr = null;
    job.ocrCancelled = true;
    this.show(job, job.result, { announce: false }); // one live-region message: "cancelled"
    job.view.status.textContent = this.t("cancelled");
    this.announce(`${job.file.name}: ${this.t("cancelled")}`);
    if (job.cancelClicked) job.view.item.focus();
    job.cancelClicked = false;
    return true;
  }

  // the remembered "recognise scans automatically" setting: off unless ticked (it downloads 4–7 MB
  // once); the language is the one last chosen in a banner
  renderOcrOption() {
    const box = element("input", { type: "checkbox", id: "auto-ocr", checked: Boolean(storedItem(AUTO_OCR_KEY)) });
    box.addEventListener("change", () => {
      storeItem(AUTO_OCR_KEY, box.checked ? (storedItem(OCR_LANGUAGE_KEY) || OCR_LANGUAGES[0]) : null);
    });
    return element("div", { class: "choice" }, [box, element("label", { for: "auto-ocr", text: this.t("ocrAuto") })]);
  }

  // the "needs OCR" banner offers recognition: a language, optionally a second one (a scan in two
  // languages: tesseract reads "eng+deu"), and the one-time download it costs; with the automatic
  // setting on, recognition starts at once in the remembered languages
  offerOcr(job) {
    if (job.ocr) return; // recognised already: what is still missing has no text to read
    const automatic = knownOcrLanguages(storedItem(AUTO_OCR_KEY));
    if (automatic && !job.ocrCancelled) {
      job.ocr = automatic;
      queueMicrotask(() => this.start(job));
      return;
    }
    const t = this.t;
    const remembered = (knownOcrLanguages(storedItem(OCR_LANGUAGE_KEY)) || OCR_LANGUAGES[0]).split("+");
    const select = element("select", { class: "ocr-language", "aria-label": t("ocrLanguage") },
      OCR_LANGUAGES.map((code) => element("option", { value: code, text: this.ocrLanguageName(code) })));
    select.value = remembered[0];
    const second = element("select", { class: "ocr-language-second", "aria-label": t("ocrSecondLanguage") }, [
      element("option", { value: "", text: t("ocrNoSecondLanguage") }),
      ...OCR_LANGUAGES.map((code) => element("option", { value: code, text: t("ocrAlsoLanguage", { language: this.ocrLanguageName(code) }) }))]);
    second.value = remembered[1] || "";
    const chosen = () => [...new Set([select.value, second.value].filter(Boolean))].join("+");
    const size = element("span", { class: "ocr-size" });
    const showSize = () => {
      size.textContent = t("ocrSize", { size: formatBytes(this.language, ocrDownloadBytes(chosen(), job.ocrNeedsRenderer)) });
    };
    select.addEventListener("change", showSize);
    second.addEventListener("change", showSize);
    showSize();
    this.checkOcrRendering(job, showSize);
    const button = element("button", { type: "button", class: "button primary ocr", text: t("ocrOffer") });
    button.addEventListener("click", () => {
      job.ocr = chosen();
      storeItem(OCR_LANGUAGE_KEY, job.ocr);
      if (storedItem(AUTO_OCR_KEY)) storeItem(AUTO_OCR_KEY, job.ocr);
      this.start(job);
    });
    job.view.banner.append(" ", element("span", { class: "ocr-offer" }, [button, " ", select, " ", second, " ", size]));
  }

  // whether the scan pages must be drawn before they are read (JBIG2, JPEG 2000, strips, sideways
  // images): then the page renderer is part of the download; asked once per file, in the background
  checkOcrRendering(job, then) {
    if (job.ocrNeedsRenderer !== undefined || !job.result || !job.result.scan) return;
    job.ocrNeedsRenderer = null; // asked; not known yet
    ocrPagesToRender(job.file, { pages: job.result.scan.pages.join(","), password: job.password })
      .then((pages) => { job.ocrNeedsRenderer = pages.length > 0; if (!job.removed) then(); })
      .catch(() => { job.ocrNeedsRenderer = undefined; });
  }

  askPassword(job) {
    const t = this.t;
    // the focus moves to the field when the person just tried a password for this file, or when
    // no other file's prompt is open: a batch of locked files does not pull it from prompt to prompt
    const otherPrompt = this.jobs.some((other) => other !== job && other.view.item.dataset.state === "password");
    const takeFocus = job.passwordTried || !otherPrompt;
    job.passwordTried = false;
    this.setState(job, "password");
    job.view.status.textContent = "";
    job.view.passwordMessage.textContent = job.password ? t("passwordWrong") : t("passwordNeeded");
    job.view.passwordForm.hidden = false;
    job.view.passwordInput.value = "";
    if (takeFocus) job.view.passwordInput.focus();
  }

  fail(job, kind, message) {
    const t = this.t;
    job.result = null; // a failed re-run: the earlier result no longer matches the options
    job.view.result.hidden = true;
    this.setState(job, "error");
    job.view.status.textContent = "";
    const known = t(`errors.${kind}`) !== `errors.${kind}`;
    job.view.error.textContent = known ? t(`errors.${kind}`) : t("errors.failed");
    job.view.error.dataset.kind = kind;
    job.view.error.hidden = false;
    job.view.errorDetail.textContent = message || "";
    job.view.errorDetails.hidden = !message;
  }

  // `announce` false: the caller says what happened (a cancelled OCR: "cancelled", not "done" first)
  show(job, result, { announce = true } = {}) {
    const t = this.t;
    const view = job.view;
    const lang = this.language;
    job.result = result;
    job.mode = job.options.mode;
    this.closeInspector(job, false, true); // it showed the last run's pages
    view.result.hidden = true; // shown again below unless the file has no text to show
    const selected = result.pages.length;
    view.status.textContent = t("done", { seconds: formatNumber(lang, Math.round(result.seconds * 100) / 100) });
    if (announce) this.announce(t("announceDone", { name: job.file.name, pages: selected }));
    const counts = { pages: formatNumber(lang, selected), words: formatNumber(lang, result.wordCount), chars: formatNumber(lang, result.charCount) };
    view.counts.textContent = selected === 1 ? t("countsOne", counts) : t("counts", counts);
    // pages without text while a font's CMap file could not be fetched (offline before it was
    // cached) are not scans: say what is missing instead of "needs OCR"
    // (the engine calls pages whose glyphs lack Unicode "unmapped", or "scan" when images cover them)
    const lacking = result.scan || result.unmapped;
    const missingFontData = Boolean(lacking) && (result.missingFontData || []).length > 0;
    if (missingFontData && lacking.wholeDocument) {
      this.fail(job, "font-data", "");
      return;
    }
    if (result.scan && result.scan.wholeDocument) {
      this.setState(job, "scan");
      view.banner.textContent = t("scanWhole");
      this.offerOcr(job);
      view.banner.hidden = false;
      return; // never an empty download presented as success
    }
    this.setState(job, "done");
    view.download.textContent = t("download", { name: outputName(job.file.name, job.mode) });
    if (missingFontData) {
      view.banner.textContent = t("errors.font-data");
      view.banner.hidden = false;
    } else if (result.scan) {
      view.banner.textContent = t("scanPages", { pages: result.scan.pages.join(", ") });
      this.offerOcr(job);
      view.banner.hidden = false;
    } else if (result.unmapped) {
      const key = result.unmapped.wholeDocument ? "unmappedWhole" : "unmappedPages";
      view.banner.textContent = t(key, { pages: result.unmapped.pages.join(", ") });
      view.banner.hidden = false;
    }
    this.renderNotices(view, result);
    view.download.textContent = t("download", { name: outputName(job.file.name, job.mode) });
    this.renderPager(job);
    this.refreshPreview(job);
    view.result.hidden = false;
  }

  /** The engine's warnings in the reader's language: one line per distinct sentence, with the
   * pages it concerns; the English originals behind "Details". A result without codes (an older
   * worker) shows its English warnings as they are. */
  renderNotices(view, result) {
    const t = this.t;
    const notices = result.notices || (result.warnings || []).map((text) => ({ code: "other", params: {}, page: null, text }));
    const groups = new Map();
    for (const notice of notices) {
      const worded = notice.code === "other" && !result.notices ? notice.text : this.wordNotice(notice);
      if (!groups.has(worded)) groups.set(worded, { pages: new Set(), count: 0 });
      const group = groups.get(worded);
      group.count += 1;
      if (notice.page != null) group.pages.add(notice.page);
    }
    const lines = [...groups].map(([text, { pages, count }]) => {
      const numbers = [...pages].sort((a, b) => a - b);
      if (numbers.length) {
        const listed = numbers.map((number) => formatNumber(this.language, number)).join(", ");
        return t(numbers.length === 1 ? "noticeOnPages" : "noticeOnPagesMany", { pages: listed, text });
      }
      return count > 1 ? t("noticeRepeated", { text, count: formatNumber(this.language, count) }) : text;
    });
    view.warnings.replaceChildren(...lines.map((line) => element("li", { class: "notice", text: line })));
    view.warningsSummary.textContent = t("noticesTitle", { count: formatNumber(this.language, notices.length) });
    view.warningDetail.textContent = [...new Set(notices.map((notice) => notice.text))].join("\n");
    view.warningsBox.hidden = notices.length === 0;
  }

  wordNotice(notice) {
    const params = notice.params || {};
    const singular = `notices.${notice.code}#one`; // "1 character is…", where the sentence has one
    const key = params.count === 1 && this.t(singular) !== singular ? singular : `notices.${notice.code}`;
    const worded = this.t(key, params);
    return worded === key ? this.t("notices.other") : worded;
  }

  // ------------------------------------------------------------------ the page view

  /** The page list and number field for a new result; the view starts on all pages. */
  renderPager(job) {
    const t = this.t;
    const view = job.view;
    const pages = job.result.pages;
    job.page = 0;
    job.hit = -1;
    view.pager.hidden = pages.length < 2; // one page: nothing to move between
    view.pageInput.min = String(pages.length ? pages[0].number : 1);
    view.pageInput.max = String(pages.length ? pages[pages.length - 1].number : 1);
    view.pageOf.textContent = t("pageOf", { pages: formatNumber(this.language, job.result.pageCount) });
    view.pageList.replaceChildren(
      element("option", { value: "0", text: t("allPages") }),
      ...pages.map((page) => element("option", {
        value: String(page.number),
        text: job.mode === "json" ? t("pageLabel", { number: formatNumber(this.language, page.number) })
          : t("pageChoice", { number: formatNumber(this.language, page.number), start: pageStart(page.text) }),
      })),
    );
  }

  showPage(job, number) {
    job.page = number;
    job.hit = -1;
    this.refreshPreview(job);
    if (job.inspector && !job.view.inspectorSlot.hidden) job.inspector.show(this.inspectedPage(job));
  }

  // ------------------------------------------------------------------ the layout inspector

  /** The page the inspector shows: the one in view, or the first when all pages are. */
  inspectedPage(job) {
    return job.page || job.result.pages[0].number;
  }

  async openInspector(job) {
    const view = job.view;
    if (!job.inspector) {
      const { Inspector } = await import("./inspector.mjs");
      if (job.inspector || !job.result) return;
      const { mode, markers, bom, ...engineOptions } = job.options; // the inspector asks for JSON itself
      job.inspector = new Inspector({
        t: this.t, language: this.language,
        extract: (options) => extractText(job.file, { ...engineOptions, pages: null, password: job.password, ocr: job.ocr || undefined, ...options }),
        pdfBytes: () => job.file.arrayBuffer(),
        password: () => job.password,
      });
      job.inspector.closeButton.addEventListener("click", () => this.closeInspector(job, true));
    }
    view.inspectorSlot.replaceChildren(job.inspector.element);
    view.inspectorSlot.hidden = false;
    view.inspect.setAttribute("aria-expanded", "true");
    await job.inspector.show(this.inspectedPage(job));
  }

  /** Hides the inspector (focus back on its button when asked); `forget` drops what it read. */
  closeInspector(job, focus = false, forget = false) {
    const view = job.view;
    if (!job.inspector) return;
    view.inspectorSlot.hidden = true;
    view.inspect.setAttribute("aria-expanded", "false");
    if (forget) {
      job.inspector.dispose();
      job.inspector = null;
      view.inspectorSlot.replaceChildren();
    }
    if (focus) view.inspect.focus();
  }

  /** Previous/next: from "all pages", next is the first page and previous the last. */
  stepPage(job, step) {
    const numbers = job.result.pages.map((page) => page.number);
    const index = numbers.indexOf(job.page);
    const target = index < 0 ? (step > 0 ? 0 : numbers.length - 1) : Math.min(numbers.length - 1, Math.max(0, index + step));
    this.showPage(job, numbers[target]);
  }

  /** Re-renders the preview for the current page and search, and the controls that depend on them. */
  refreshPreview(job) {
    const t = this.t;
    const view = job.view;
    const result = job.result;
    const lang = this.language;
    const numbers = result.pages.map((page) => page.number);
    const index = numbers.indexOf(job.page);
    view.previous.disabled = index === 0;
    view.next.disabled = index === numbers.length - 1;
    view.pageInput.value = job.page ? String(job.page) : "";
    view.pageInput.setAttribute("aria-invalid", "false");
    view.pageList.value = String(job.page);
    view.copyPage.hidden = !job.page;
    if (job.page) view.copyPage.textContent = t("copyPage", { number: formatNumber(lang, job.page) });
    const shown = job.page ? result.pages.filter((page) => page.number === job.page) : result.pages;
    const cut = this.renderPreview(view.preview, shown, job.mode, result.pages.length > 1, job.query);
    view.previewNote.hidden = !cut;
    view.previewNote.textContent = cut ? t("previewCut", { chars: formatNumber(lang, PREVIEW_CHARS) }) : "";
    // hits are counted in the full text, also where the preview was cut
    const query = job.query;
    const total = result.pages.reduce((sum, page) => sum + countHits(displayText(page, job.mode), query), 0);
    const here = shown.reduce((sum, page) => sum + countHits(displayText(page, job.mode), query), 0);
    if (!query) view.hits.textContent = "";
    else if (!total) view.hits.textContent = t("searchNone");
    else if (job.page) view.hits.textContent = t("searchHitsPage", { count: formatNumber(lang, here), total: formatNumber(lang, total) });
    else view.hits.textContent = t(total === 1 ? "searchHitsOne" : "searchHits", { count: formatNumber(lang, total) });
  }

  /** Enter in the search field: the next highlighted hit is marked and scrolled into view. */
  nextHit(job, step) {
    const marks = [...job.view.preview.querySelectorAll("mark.hit")];
    if (!marks.length) return;
    for (const mark of marks) mark.classList.remove("current");
    job.hit = (job.hit + step + marks.length) % marks.length;
    const mark = marks[job.hit];
    mark.classList.add("current");
    mark.scrollIntoView({ block: "nearest", behavior: REDUCED_MOTION.matches ? "auto" : "smooth" });
  }

  /** The preview of `pages`, a label over each when `labelled`; returns whether it was cut at PREVIEW_CHARS. */
  renderPreview(preview, pages, mode, labelled, query = "") {
    const t = this.t;
    let budget = PREVIEW_CHARS;
    let cut = false;
    const sections = [];
    for (const page of pages) {
      if (budget <= 0) { cut = true; break; }
      let text = displayText(page, mode);
      if (text.length > budget) { text = text.slice(0, budget); cut = true; }
      budget -= text.length;
      const label = t("pageLabel", { number: formatNumber(this.language, page.number) });
      const section = element("section", { class: "page", "data-page": String(page.number) });
      if (labelled) section.append(element("h3", { class: "page-label", text: label }));
      section.append(...previewBlocks(text, mode, query));
      sections.push(section);
    }
    preview.dataset.mode = mode;
    preview.replaceChildren(...sections);
    return cut;
  }

  download(job) {
    this.save(new Blob([job.result.text], { type: mediaType(job.mode) }), outputName(job.file.name, job.mode));
  }

  save(blob, name) {
    const url = URL.createObjectURL(blob);
    const link = element("a", { href: url, download: name, class: "visually-hidden" });
    this.root.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000); // the download has long started by then
  }

  async copy(job, text) {
    const t = this.t;
    try {
      await navigator.clipboard.writeText(text);
      job.view.copyStatus.textContent = t("copied");
    } catch {
      const selection = document.getSelection();
      if (selection) selection.selectAllChildren(job.view.preview);
      job.view.copyStatus.textContent = t("copyFailed");
    }
  }
}

if (!customElements.get("glyphline-converter")) customElements.define("glyphline-converter", GlyphlineConverter);

export { GlyphlineConverter, element };
