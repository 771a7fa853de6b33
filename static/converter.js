// <glyphline-converter>: the whole drop-zone UI (queue, options, progress, preview, download).
//
//   <script type="module" src="static/converter.js"></script>
//   <glyphline-converter></glyphline-converter>
//
// Attributes: `page-drop` accepts files dropped anywhere on the page; `preload` starts the
// worker as soon as the element is on the page; `sample="url"` adds a "Try a sample" button;
// `lang="de"` overrides the browser language.
import { extractText, preload, status, GlyphlineError } from "./glyphline.js";
import { chooseLanguage, formatBytes, formatNumber, translator } from "./i18n.js";

const STYLESHEET = new URL("./converter.css", import.meta.url).href;
const OPTIONS_KEY = "glyphline.options";
const DEFAULT_OPTIONS = { mode: "reflow", markers: false, dehyphenate: true, annotations: true, bom: false, pages: "" };
const PREVIEW_CHARS = 200_000; // a textarea with more than this gets sluggish on a phone
const PAGE_RANGE = /^\s*\d+\s*(-\s*\d*\s*)?(,\s*\d+\s*(-\s*\d*\s*)?)*$/;

function loadOptions() {
  try {
    const saved = JSON.parse(localStorage.getItem(OPTIONS_KEY) || "{}");
    const options = { ...DEFAULT_OPTIONS };
    for (const key of Object.keys(DEFAULT_OPTIONS)) {
      if (typeof saved[key] === typeof DEFAULT_OPTIONS[key]) options[key] = saved[key];
    }
    if (!["reflow", "preserve", "layout"].includes(options.mode)) options.mode = "reflow";
    return options;
  } catch {
    return { ...DEFAULT_OPTIONS };
  }
}

function saveOptions(options) {
  try { localStorage.setItem(OPTIONS_KEY, JSON.stringify(options)); } catch { /* private mode: not remembered */ }
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

function textName(fileName) {
  const stem = String(fileName || "document").replace(/\.pdf$/i, "") || "document";
  return `${stem}.txt`;
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
  }

  connectedCallback() {
    this.language = this.getAttribute("lang") || chooseLanguage(navigator.languages || [navigator.language]);
    this.t = translator(this.language);
    this.render();
    status.addEventListener("change", this.onStatus);
    this.renderStatus();
    const dropTarget = this.hasAttribute("page-drop") ? document : this.root.querySelector(".dropzone");
    this.dropTarget = dropTarget;
    dropTarget.addEventListener("dragover", this.onPageDragOver);
    dropTarget.addEventListener("drop", this.onPageDrop);
    if (this.hasAttribute("preload")) preload().catch(() => {});
  }

  disconnectedCallback() {
    status.removeEventListener("change", this.onStatus);
    if (this.dropTarget) {
      this.dropTarget.removeEventListener("dragover", this.onPageDragOver);
      this.dropTarget.removeEventListener("drop", this.onPageDrop);
    }
  }

  // ------------------------------------------------------------------ layout

  render() {
    const t = this.t;
    this.root.replaceChildren();
    this.root.append(element("link", { rel: "stylesheet", href: STYLESHEET }));
    const loader = element("div", { class: "loader", role: "status", id: "loader" }, [
      element("p", { id: "loader-text" }),
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
    const dropzone = element("section", { class: "dropzone", "aria-label": t("dropHere") }, [
      element("p", { text: t("dropHere") }),
      element("div", { class: "actions" }, actions),
    ]);
    this.root.append(loader, dropzone, this.renderOptions(),
      element("div", { id: "live", class: "visually-hidden", "aria-live": "polite", role: "status" }),
      element("ol", { id: "queue", class: "queue", "aria-label": t("queueLabel") }));
  }

  renderOptions() {
    const t = this.t;
    const modes = element("fieldset", {}, [element("legend", { text: t("modeLegend") })]);
    for (const mode of ["reflow", "preserve", "layout"]) {
      const radio = element("input", { type: "radio", name: "mode", value: mode, id: `mode-${mode}`, checked: this.options.mode === mode });
      radio.addEventListener("change", () => this.setOption("mode", mode));
      modes.append(element("div", { class: "choice" }, [radio, element("label", { for: `mode-${mode}`, text: t(`modes.${mode}`) })]));
    }
    const checks = element("fieldset", { class: "checks" });
    for (const name of ["markers", "dehyphenate", "annotations", "bom"]) {
      const box = element("input", { type: "checkbox", id: name, checked: this.options[name] });
      box.addEventListener("change", () => this.setOption(name, box.checked));
      checks.append(element("div", { class: "choice" }, [box, element("label", { for: name, text: t(name) })]));
    }
    const pages = element("input", { type: "text", id: "pages", inputmode: "numeric", autocomplete: "off", placeholder: t("pagesHint"), value: this.options.pages, "aria-describedby": "pages-hint" });
    pages.addEventListener("change", () => this.setOption("pages", pages.value.trim()));
    const range = element("div", { class: "range" }, [
      element("label", { for: "pages", text: t("pages") }), pages,
      element("span", { id: "pages-hint", class: "hint", text: t("pagesHint") }),
    ]);
    return element("details", { class: "options", id: "options" }, [
      element("summary", { text: t("optionsTitle") }), element("div", { class: "option-grid" }, [modes, checks, range]),
    ]);
  }

  setOption(name, value) {
    this.options = { ...this.options, [name]: value };
    saveOptions(this.options);
  }

  renderStatus() {
    const t = this.t;
    const text = this.root.getElementById("loader-text");
    const bar = this.root.getElementById("loader-progress");
    const loader = this.root.getElementById("loader");
    if (!text) return;
    loader.dataset.state = status.state;
    if (status.state === "loading" || status.state === "idle") {
      const size = status.total ? formatBytes(this.language, status.total) : "≈14 MB";
      const stage = status.stage ? ` ${t(`loadingStage.${status.stage}`)}.` : "";
      text.textContent = `${t("loadingRuntime", { size })}${stage}`;
      if (status.total) bar.value = Math.max(0.05, status.done / status.total); else bar.removeAttribute("value");
      bar.hidden = false;
    } else if (status.state === "ready") {
      text.textContent = t("ready");
      bar.hidden = true;
    } else {
      text.textContent = t("loadFailed", { message: status.message || "" });
      bar.hidden = true;
    }
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

  drop(event) {
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
  }

  // ------------------------------------------------------------------ one file

  createJob(file) {
    const t = this.t;
    const id = `job-${++jobCounter}`;
    const view = {};
    view.status = element("p", { class: "status", id: `${id}-status`, text: t("waiting") });
    view.progress = element("progress", { class: "progress", max: "1", value: "0", "aria-labelledby": `${id}-status` });
    view.cancel = element("button", { type: "button", class: "button cancel", text: t("cancel") });
    view.banner = element("p", { class: "banner scan", role: "alert", hidden: true });
    view.error = element("p", { class: "banner error", role: "alert", hidden: true });
    view.passwordInput = element("input", { type: "password", id: `${id}-password`, autocomplete: "off" });
    view.passwordMessage = element("p", { class: "banner password-message", role: "alert" });
    view.passwordForm = element("form", { class: "password", hidden: true }, [
      view.passwordMessage,
      element("label", { for: `${id}-password`, text: t("passwordLabel", { name: file.name }) }),
      element("div", { class: "actions" }, [view.passwordInput, element("button", { type: "submit", class: "button primary", text: t("passwordSubmit") })]),
    ]);
    view.counts = element("p", { class: "counts" });
    view.warnings = element("ul", { class: "warnings" });
    view.warningsBox = element("details", { class: "warnings-box", hidden: true }, [element("summary", { text: t("warningsTitle") }), view.warnings]);
    view.download = element("button", { type: "button", class: "button primary download", text: t("download", { name: textName(file.name) }) });
    view.copy = element("button", { type: "button", class: "button copy", text: t("copy") });
    view.copyStatus = element("span", { class: "copy-status", role: "status" });
    view.previewNote = element("p", { class: "hint", hidden: true });
    view.preview = element("textarea", { class: "preview", readonly: true, rows: "12", spellcheck: "false", "aria-label": t("preview", { name: file.name }) });
    view.result = element("div", { class: "result", hidden: true }, [
      view.counts, element("div", { class: "actions" }, [view.download, view.copy, view.copyStatus]),
      view.warningsBox, view.previewNote, view.preview,
    ]);
    view.item = element("li", { class: "job", "data-state": "waiting", id }, [
      element("h2", { class: "name", text: file.name }),
      element("div", { class: "line" }, [view.status, view.cancel]), view.progress,
      view.banner, view.error, view.passwordForm, view.result,
    ]);
    const job = { file, view, password: "", controller: null, result: null };
    view.cancel.addEventListener("click", () => job.controller && job.controller.abort());
    view.passwordForm.addEventListener("submit", (event) => {
      event.preventDefault();
      job.password = view.passwordInput.value;
      this.start(job);
    });
    view.download.addEventListener("click", () => this.download(job));
    view.copy.addEventListener("click", () => this.copy(job));
    return job;
  }

  setState(job, state) {
    job.view.item.dataset.state = state;
    job.view.cancel.hidden = !["waiting", "running"].includes(state);
    job.view.progress.hidden = !["waiting", "running"].includes(state);
  }

  async start(job) {
    const t = this.t;
    const view = job.view;
    for (const part of [view.banner, view.error, view.passwordForm, view.result]) part.hidden = true;
    const options = { ...this.options };
    job.mode = options.mode;
    if (options.pages && !PAGE_RANGE.test(options.pages)) {
      this.fail(job, "bad-options", "");
      return;
    }
    this.setState(job, "waiting");
    view.status.textContent = t("waiting");
    view.progress.removeAttribute("value");
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
        signal: job.controller.signal,
        onProgress: ({ page, pages }) => {
          if (!announcedStart) { this.announce(t("announceStart", { name: job.file.name })); announcedStart = true; }
          this.setState(job, "running");
          view.status.textContent = t("progress", { page: formatNumber(this.language, page), pages: formatNumber(this.language, pages) });
          view.progress.max = pages;
          view.progress.value = page;
        },
      });
      this.show(job, result);
    } catch (error) {
      if (error && error.name === "AbortError") {
        this.setState(job, "cancelled");
        view.status.textContent = t("cancelled");
        this.announce(`${job.file.name}: ${t("cancelled")}`);
      } else if (error instanceof GlyphlineError && error.kind === "password") {
        this.askPassword(job);
      } else if (error instanceof GlyphlineError) {
        this.fail(job, error.kind, error.message);
      } else {
        this.fail(job, "failed", String(error && error.message || error));
      }
    }
  }

  askPassword(job) {
    const t = this.t;
    this.setState(job, "password");
    job.view.status.textContent = "";
    job.view.passwordMessage.textContent = job.password ? t("passwordWrong") : t("passwordNeeded");
    job.view.passwordForm.hidden = false;
    job.view.passwordInput.value = "";
    job.view.passwordInput.focus();
  }

  fail(job, kind, message) {
    const t = this.t;
    this.setState(job, "error");
    job.view.status.textContent = "";
    job.view.error.textContent = t(`errors.${kind}`, { message }) || t("errors.failed", { message });
    job.view.error.dataset.kind = kind;
    job.view.error.hidden = false;
  }

  show(job, result) {
    const t = this.t;
    const view = job.view;
    const lang = this.language;
    job.result = result;
    const selected = result.pages.length;
    view.status.textContent = t("done", { seconds: formatNumber(lang, Math.round(result.seconds * 100) / 100) });
    this.announce(t("announceDone", { name: job.file.name, pages: selected }));
    const counts = { pages: formatNumber(lang, selected), words: formatNumber(lang, result.wordCount), chars: formatNumber(lang, result.charCount) };
    view.counts.textContent = selected === 1 ? t("countsOne", counts) : t("counts", counts);
    if (result.scan && result.scan.wholeDocument) {
      this.setState(job, "scan");
      view.banner.textContent = t("scanWhole");
      view.banner.hidden = false;
      return; // never an empty download presented as success
    }
    this.setState(job, "done");
    if (result.scan) {
      view.banner.textContent = t("scanPages", { pages: result.scan.pages.join(", ") });
      view.banner.hidden = false;
    }
    view.warnings.replaceChildren(...result.warnings.map((warning) => element("li", { text: warning })));
    view.warningsBox.hidden = result.warnings.length === 0;
    const cut = result.text.length > PREVIEW_CHARS;
    view.preview.value = cut ? result.text.slice(0, PREVIEW_CHARS) : result.text;
    // reflowed paragraphs are one long line each: wrap them; page lines and grids stay as laid out
    view.preview.wrap = job.mode === "reflow" ? "soft" : "off";
    view.previewNote.hidden = !cut;
    view.previewNote.textContent = cut ? t("previewCut", { chars: formatNumber(lang, PREVIEW_CHARS) }) : "";
    view.result.hidden = false;
  }

  download(job) {
    const blob = new Blob([job.result.text], { type: "text/plain;charset=utf-8" });
    const url = URL.createObjectURL(blob);
    const link = element("a", { href: url, download: textName(job.file.name), class: "visually-hidden" });
    this.root.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000); // the download has long started by then
  }

  async copy(job) {
    const t = this.t;
    try {
      await navigator.clipboard.writeText(job.result.text);
      job.view.copyStatus.textContent = t("copied");
    } catch {
      job.view.preview.select();
      job.view.copyStatus.textContent = t("copyFailed");
    }
  }
}

if (!customElements.get("glyphline-converter")) customElements.define("glyphline-converter", GlyphlineConverter);

export { GlyphlineConverter };
