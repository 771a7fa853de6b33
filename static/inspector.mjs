// The layout inspector: one page drawn from the engine's JSON boxes (inspect option) as an SVG,
// over the rendered page when a renderer is there (./pdfrender.mjs, loaded on first use):
// word boxes, block outlines, reading-order numbers, columns, the rules and small marks the
// page's paths draw (what tables and drawn bullets are found from), and the glyphs left out of
// the text (outside the crop box, fake-bold duplicates, hidden layers). People see why the text
// came out in this order. Loaded by the converter only when someone opens it.
//
//   const inspector = new Inspector({ t, language, extract: (options) => extractText(file, options), pdfBytes });
//   container.append(inspector.element); await inspector.show(pageNumber);

import { element } from "./converter.js";   // the one DOM helper (converter.js loads this module)

const SVG_NS = "http://www.w3.org/2000/svg";
const RENDER_DPI = 144; // twice the page's points: sharp on a 2× screen at "fit"
const ZOOM_STEP = 1.25;
const ZOOM_MIN = 0.1;
const ZOOM_MAX = 8;
const PX_PER_PT = 96 / 72; // 100 % shows the page at its printed size
// a glyph placed absurdly far off the page stays drawn, pinned this many page sizes outside it
const OFF_PAGE_REACH = 0.5;
// a reading-order badge is this many of the page's median word sizes across, within these points
const BADGE_EM = 1.3;
const BADGE_MIN_PT = 6;
const BADGE_MAX_PT = 18;
export const LAYERS = ["underlay", "words", "blocks", "order", "columns", "rules", "marks", "dropped"];
const DROP_REASONS = ["outside_crop", "duplicate", "hidden_layer"];


function shape(tag, attributes = {}, children = []) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "text") node.textContent = value;
    else if (value != null) node.setAttribute(name, String(value));
  }
  for (const child of children) node.append(child);
  return node;
}

function titled(node, text) {
  node.append(shape("title", { text }));
  return node;
}

function rect([x0, y0, x1, y1], attributes = {}) {
  return shape("rect", { x: x0, y: y0, width: Math.max(0, x1 - x0), height: Math.max(0, y1 - y0), ...attributes });
}

/** Everything the page's JSON says, flattened for drawing. */
export function pageFigures(page) {
  const words = [];
  const blocks = [];
  for (const block of page.blocks || []) {
    blocks.push(block);
    for (const line of block.lines || []) for (const word of line.words || []) words.push(word);
  }
  return { words, blocks, columns: page.columns || [], rules: page.rules || [], marks: page.marks || [],
    dropped: page.dropped || [], omitted: page.dropped_omitted || 0 };
}

function median(values) {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function clampBox(box, width, height) {
  const reachX = OFF_PAGE_REACH * width;
  const reachY = OFF_PAGE_REACH * height;
  const clamp = (value, low, high) => Math.min(high, Math.max(low, value));
  return [clamp(box[0], -reachX, width + reachX), clamp(box[1], -reachY, height + reachY),
    clamp(box[2], -reachX, width + reachX), clamp(box[3], -reachY, height + reachY)];
}

export class Inspector {
  constructor({ t, language, extract, pdfBytes, password = () => "" }) {
    this.t = t;
    this.language = language;
    this.extract = extract; // (engine options) => Promise of extractText's result
    this.pdfBytes = pdfBytes; // () => Promise<ArrayBuffer> for the renderer
    this.password = password; // () => the file's password (an encrypted file renders with it)
    this.pages = new Map(); // page number → its JSON page object
    this.underlays = new Map(); // page number → blob URL of its rendered image, or null
    this.visible = new Set(LAYERS);
    this.zoom = 0; // 0: fit the width; else CSS pixels per point
    this.number = 0;
    this.build();
  }

  roleName(role) {
    const key = `inspector.role.${role}`;
    const name = this.t(key);
    return name === key ? role : name;
  }

  format(value) {
    return new Intl.NumberFormat(this.language).format(value);
  }

  build() {
    const t = this.t;
    const id = `inspector-${Math.random().toString(36).slice(2, 9)}`;
    this.heading = element("h3", { id: `${id}-title`, class: "inspector-title" });
    this.closeButton = element("button", { type: "button", class: "button inspector-close", text: t("inspector.close") });
    this.toggles = new Map();
    const layers = element("fieldset", { class: "inspector-layers" }, [element("legend", { text: t("inspector.layers") })]);
    for (const layer of LAYERS) {
      const box = element("input", { type: "checkbox", id: `${id}-${layer}`, "data-layer": layer, checked: true });
      box.addEventListener("change", () => this.setLayer(layer, box.checked));
      const count = element("span", { class: "layer-count" });
      const label = element("label", { for: `${id}-${layer}` }, [
        element("span", { class: `swatch swatch-${layer}`, "aria-hidden": "true" }),
        element("span", { text: t(`inspector.layer.${layer}`) }), count,
      ]);
      const row = element("div", { class: "layer", "data-layer": layer }, [box, label]);
      this.toggles.set(layer, { box, count, row });
      layers.append(row);
    }
    this.zoomOut = element("button", { type: "button", class: "button zoom-out", text: t("inspector.zoomOut") });
    this.zoomFit = element("button", { type: "button", class: "button zoom-fit", text: t("inspector.zoomFit"), "aria-pressed": "true" });
    this.zoomIn = element("button", { type: "button", class: "button zoom-in", text: t("inspector.zoomIn") });
    this.zoomLevel = element("span", { class: "zoom-level", role: "status" });
    this.zoomOut.addEventListener("click", () => this.setZoom(this.currentScale() / ZOOM_STEP));
    this.zoomIn.addEventListener("click", () => this.setZoom(this.currentScale() * ZOOM_STEP));
    this.zoomFit.addEventListener("click", () => this.setZoom(0));
    const zoom = element("div", { class: "inspector-zoom", role: "group", "aria-label": t("inspector.zoom") },
      [this.zoomOut, this.zoomFit, this.zoomIn, this.zoomLevel]);
    this.summary = element("p", { class: "inspector-summary", id: `${id}-summary`, role: "status" });
    this.svg = shape("svg", { class: "inspector-svg", role: "img", "aria-labelledby": `${id}-title`, "aria-describedby": `${id}-summary` });
    // focusable so the keyboard scrolls a zoomed page (a group: the section around it is the landmark)
    this.stage = element("div", { class: "inspector-stage", tabindex: "0", role: "group", "aria-labelledby": `${id}-title` }, [this.svg]);
    this.element = element("section", { class: "inspector", "aria-labelledby": `${id}-title` }, [
      element("link", { rel: "stylesheet", href: new URL("./inspector.css", import.meta.url).href }),
      element("div", { class: "inspector-head" }, [this.heading, this.closeButton]),
      element("div", { class: "inspector-controls" }, [layers, zoom]),
      this.summary, this.stage,
    ]);
    this.element.addEventListener("keydown", (event) => {
      if (event.key === "Escape") { event.stopPropagation(); this.closeButton.click(); }
    });
    this.resizer = new ResizeObserver(() => { if (!this.zoom) this.applyZoom(); });
    this.resizer.observe(this.stage);
  }

  /** Reads (once) and draws page `number`; resolves when it is on screen. */
  async show(number) {
    const t = this.t;
    this.number = number;
    this.heading.textContent = t("inspector.title", { number: this.format(number) });
    this.element.dataset.state = "loading";
    this.summary.textContent = t("inspector.loading");
    try {
      let page = this.pages.get(number);
      if (!page) {
        const result = await this.extract({ mode: "json", pages: String(number), inspect: true });
        page = result.json && result.json.pages && result.json.pages[0];
        if (!page) throw new Error("no page");
        this.pages.set(number, page);
      }
      if (this.number !== number) return; // another page was asked for meanwhile
      this.draw(page);
      this.element.dataset.state = "ready";
      await this.addUnderlay(number, page);
    } catch (error) {
      if (this.number !== number) return;
      this.element.dataset.state = "error";
      this.summary.textContent = t("inspector.failed");
      this.svg.replaceChildren();
    }
  }

  draw(page) {
    const t = this.t;
    const { width, height } = page;
    const figures = pageFigures(page);
    const em = median(figures.words.map((word) => word.size)) || 10;
    const badge = Math.min(BADGE_MAX_PT, Math.max(BADGE_MIN_PT, BADGE_EM * em));
    const dropped = figures.dropped.map((item) => ({ ...item, bbox: clampBox(item.bbox, width, height) }));
    // the view shows the page and whatever was left out beside it
    let [x0, y0, x1, y1] = [0, 0, width, height];
    for (const { bbox } of dropped) {
      x0 = Math.min(x0, bbox[0]); y0 = Math.min(y0, bbox[1]); x1 = Math.max(x1, bbox[2]); y1 = Math.max(y1, bbox[3]);
    }
    const margin = badge;
    this.viewBox = [x0 - margin, y0 - margin, x1 - x0 + 2 * margin, y1 - y0 + 2 * margin];
    this.svg.setAttribute("viewBox", this.viewBox.join(" "));
    this.svg.dataset.page = String(page.number);
    delete this.svg.dataset.underlay; // until this page's image is drawn

    const layer = (name) => shape("g", { class: `layer-${name}`, "data-layer": name });
    const paper = rect([0, 0, width, height], { class: "paper" });
    const underlay = layer("underlay");
    const words = layer("words");
    for (const word of figures.words) words.append(titled(rect(word.bbox, { class: "word" }), word.text));
    const blocks = layer("blocks");
    const order = layer("order");
    figures.blocks.forEach((block, index) => {
      blocks.append(titled(rect(block.bbox, { class: `block role-${block.role}` }), t("inspector.blockTitle", { number: this.format(index + 1), role: this.roleName(block.role) })));
      const [bx, by] = block.bbox;
      order.append(shape("g", { class: "badge", transform: `translate(${bx} ${by})` }, [
        shape("circle", { r: badge / 2 }),
        shape("text", { class: "badge-number", "font-size": (badge * (index + 1 > 99 ? 0.45 : 0.6)).toFixed(2), "text-anchor": "middle", "dominant-baseline": "central", text: String(index + 1) }),
      ]));
    });
    const columns = layer("columns");
    figures.columns.forEach((column, index) => {
      columns.append(titled(rect(column.bbox, { class: `column role-${column.role}` }), t("inspector.columnTitle", { number: this.format(index + 1), role: this.roleName(column.role) })));
    });
    const rules = layer("rules");
    for (const rule of figures.rules) {
      const [rx0, ry0, rx1, ry1] = rule.bbox;
      rules.append(titled(shape("line", { class: "rule", x1: rx0, y1: ry0, x2: rx1, y2: ry1 }),
        t("inspector.ruleTitle", { width: this.format(rule.width) })));
    }
    const marks = layer("marks");
    for (const mark of figures.marks) {
      marks.append(titled(rect(mark.bbox, { class: `mark kind-${mark.kind}` }),
        t(`inspector.markTitle.${mark.kind}`) + (mark.colour ? ` ${mark.colour}` : "")));
    }
    const droppedLayer = layer("dropped");
    const reasons = Object.fromEntries(DROP_REASONS.map((reason) => [reason, 0]));
    for (const item of dropped) {
      reasons[item.reason] = (reasons[item.reason] || 0) + 1;
      const [dx0, dy0, dx1, dy1] = item.bbox;
      droppedLayer.append(titled(shape("g", { class: `dropped reason-${item.reason}` }, [
        rect(item.bbox), shape("line", { x1: dx0, y1: dy1, x2: dx1, y2: dy0 }),
      ]), `${t(`inspector.reason.${item.reason}`)}: ${item.text}`));
    }
    this.svg.replaceChildren(paper, underlay, columns, rules, marks, blocks, words, droppedLayer, order);
    this.layers = { underlay, words, blocks, order, columns, rules, marks, dropped: droppedLayer };

    const counts = { underlay: null, words: figures.words.length, blocks: figures.blocks.length, order: figures.blocks.length,
      columns: figures.columns.length, rules: figures.rules.length, marks: figures.marks.length,
      dropped: figures.dropped.length + figures.omitted };
    for (const [name, { count }] of this.toggles) count.textContent = counts[name] == null ? "" : ` (${this.format(counts[name])})`;
    this.toggles.get("underlay").row.hidden = true; // until a rendered page arrives
    if (figures.omitted) reasons.omitted = figures.omitted;
    const reasonText = [...DROP_REASONS, "omitted"].filter((reason) => reasons[reason])
      .map((reason) => t(`inspector.reasonCount.${reason}`, { count: this.format(reasons[reason]) })).join(", ");
    this.summary.textContent = [
      t("inspector.summary", { words: this.format(counts.words), blocks: this.format(counts.blocks), columns: this.format(counts.columns) }),
      counts.dropped ? t("inspector.summaryDropped", { reasons: reasonText }) : t("inspector.summaryNoneDropped"),
    ].join(" ");
    for (const name of LAYERS) this.setLayer(name, this.visible.has(name));
    this.applyZoom();
  }

  /** The rendered page under the boxes, when a renderer is available; the boxes stand alone otherwise. */
  async addUnderlay(number, page) {
    let url = this.underlays.get(number);
    if (url === undefined) {
      url = null;
      try {
        const { renderPage } = await import("./pdfrender.mjs");
        const bytes = await this.pdfBytes();
        const { canvas } = await renderPage(bytes, number, { dpi: RENDER_DPI, password: this.password() || undefined });
        // an OffscreenCanvas (in pdfrender's worker-friendly path) or a <canvas>
        const blob = canvas.convertToBlob ? await canvas.convertToBlob({ type: "image/png" })
          : await new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
        if (blob) url = URL.createObjectURL(blob);
      } catch {
        url = null; // no renderer in this build, or the page could not be rendered
      }
      this.underlays.set(number, url);
    }
    if (this.number !== number || !url || !this.layers) return;
    this.layers.underlay.replaceChildren(shape("image", { href: url, x: 0, y: 0, width: page.width, height: page.height, preserveAspectRatio: "none" }));
    this.svg.dataset.underlay = "rendered";
    this.toggles.get("underlay").row.hidden = false;
    this.setLayer("underlay", this.visible.has("underlay"));
  }

  setLayer(name, shown) {
    if (shown) this.visible.add(name); else this.visible.delete(name);
    this.toggles.get(name).box.checked = shown;
    if (this.layers && this.layers[name]) this.layers[name].toggleAttribute("hidden", !shown);
    // the rendered page is white paper, also in the dark theme: the boxes then take the light colours
    if (name === "underlay") this.svg.dataset.paper = shown && this.svg.dataset.underlay === "rendered" ? "white" : "theme";
  }

  /** CSS pixels per point now: the chosen zoom, or the one that fits the stage's width. */
  currentScale() {
    if (this.zoom) return this.zoom;
    if (!this.viewBox) return 1;
    const available = Math.max(1, this.stage.clientWidth - 2);
    return available / this.viewBox[2];
  }

  setZoom(scale) {
    this.zoom = scale ? Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, scale)) : 0;
    this.applyZoom();
  }

  applyZoom() {
    if (!this.viewBox) return;
    const scale = this.currentScale();
    this.svg.style.width = `${(this.viewBox[2] * scale).toFixed(1)}px`;
    this.svg.style.height = `${(this.viewBox[3] * scale).toFixed(1)}px`;
    this.zoomFit.setAttribute("aria-pressed", String(!this.zoom));
    this.zoomLevel.textContent = `${this.format(Math.round((scale / PX_PER_PT) * 100))} %`;
  }

  dispose() {
    this.resizer.disconnect();
    for (const url of this.underlays.values()) if (url) URL.revokeObjectURL(url);
    this.underlays.clear();
  }
}
