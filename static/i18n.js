// UI texts in English and German, chosen from the browser's languages (or a lang attribute).

const TEXTS = {
  en: {
    title: "PDF to text",
    tagline: "Drop a PDF, get its text. Everything runs in this browser tab: your files are never uploaded.",
    footer: "Glyphline · PDF → text with Python (Pyodide) in a Web Worker · works offline after the first visit",
    loadingRuntime: "Loading the converter, first visit only…",
    loadingBytes: "Loading the converter: {done} of {total}, first visit only…",
    loadingStage: { runtime: "Starting Python", packages: "Installing the engine", engine: "Loading the engine" },
    ready: "Ready. Your files stay on this device.",
    loadFailed: "The converter could not start: {message}",
    dropHere: "Drop PDF files anywhere on this page, or",
    pickHere: "Convert PDF files from this device:",
    dropOverlay: "Drop the PDF files to convert them",
    choose: "Choose PDF files",
    sample: "Try a sample",
    optionsTitle: "Options",
    modeLegend: "Text layout",
    modes: {
      reflow: "Reflow: paragraphs as single lines",
      preserve: "Preserve the page's line breaks",
      layout: "Layout: keep columns and tables aligned",
      markdown: "Markdown: headings, lists, tables and links",
    },
    markers: "Mark each page (--- Page N ---)",
    dehyphenate: "Join words hyphenated at line ends",
    annotations: "Include form fields and annotations (filled-in fields, comments, stamps)",
    bom: "Start the file with a UTF-8 byte order mark",
    pages: "Pages",
    pagesHint: "all, or e.g. 1-3,7",
    queueLabel: "Files",
    waiting: "Waiting…",
    reading: "Starting…",
    progress: "Page {page} of {pages}",
    done: "Done in {seconds} s.",
    counts: "{pages} pages · {words} words · {chars} characters",
    countsOne: "1 page · {words} words · {chars} characters",
    cancel: "Cancel",
    cancelled: "Cancelled.",
    remove: "Remove",
    download: "Download {name}",
    copy: "Copy text",
    copied: "Copied to the clipboard.",
    copyFailed: "Copying failed; select the preview and copy it by hand.",
    preview: "Text of {name}",
    pageLabel: "Page {number}",
    previewCut: "The preview shows the first {chars} characters; the download has everything.",
    warningsTitle: "Warnings",
    scanWhole: "This PDF has no text layer: it looks like a scan or photo. It needs OCR (text recognition) before its text can be extracted, so there is nothing to download.",
    scanPages: "Some pages have no text layer (scanned or blank): {pages}. They need OCR; the rest of the text is below.",
    unmappedWhole: "The fonts of this PDF do not say which characters their letters are, so its text cannot be read out. It is not a scan; only text recognition (OCR) of the rendered pages could read it.",
    unmappedPages: "On pages {pages} the fonts do not say which characters their letters are; that text is missing below.",
    ocrOffer: "Recognise text (OCR)",
    ocrLanguage: "Language of the scan",
    ocrLanguages: { eng: "English", deu: "German" },
    ocrSize: "one-time download of {size}, then offline",
    ocrProgress: "Recognising page {page} ({image} of {images})…",
    ocrPreparing: "Preparing text recognition…",
    passwordNeeded: "This PDF is protected by a password.",
    passwordWrong: "That password did not open the PDF. Try again.",
    passwordLabel: "Password for {name}",
    passwordSubmit: "Open",
    errors: {
      "not-pdf": "This file is not a PDF, so there is no text to extract.",
      damaged: "This PDF is damaged and could not be read ({message}).",
      budget: "This PDF is too large or too complex for the built-in safety limits ({message}).",
      failed: "Something went wrong while converting this file ({message}).",
      unavailable: "The converter is not available ({message}).",
      "bad-options": "The page range is not valid: use page numbers and ranges like 1-3,7.",
      "font-data": "This file needs font data that is not available offline yet. Open Glyphline once while online, then try again: after that it works offline too.",
    },
    announceDone: "{name}: done, {pages} pages.",
    announceStart: "{name}: converting.",
  },
  de: {
    title: "PDF zu Text",
    tagline: "PDF ablegen, Text erhalten. Alles läuft in diesem Browser-Tab: Ihre Dateien werden nie hochgeladen.",
    footer: "Glyphline · PDF → Text mit Python (Pyodide) in einem Web Worker · funktioniert nach dem ersten Besuch auch offline",
    loadingRuntime: "Der Konverter wird geladen, nur beim ersten Besuch…",
    loadingBytes: "Der Konverter wird geladen: {done} von {total}, nur beim ersten Besuch…",
    loadingStage: { runtime: "Python startet", packages: "Die Engine wird installiert", engine: "Die Engine wird geladen" },
    ready: "Bereit. Ihre Dateien bleiben auf diesem Gerät.",
    loadFailed: "Der Konverter konnte nicht starten: {message}",
    dropHere: "PDF-Dateien irgendwo auf dieser Seite ablegen, oder",
    pickHere: "PDF-Dateien von diesem Gerät umwandeln:",
    dropOverlay: "PDF-Dateien loslassen, um sie umzuwandeln",
    choose: "PDF-Dateien auswählen",
    sample: "Beispiel ausprobieren",
    optionsTitle: "Optionen",
    modeLegend: "Textanordnung",
    modes: {
      reflow: "Fließtext: Absätze als einzelne Zeilen",
      preserve: "Zeilenumbrüche der Seite beibehalten",
      layout: "Layout: Spalten und Tabellen ausgerichtet",
      markdown: "Markdown: Überschriften, Listen, Tabellen und Links",
    },
    markers: "Jede Seite markieren (--- Page N ---)",
    dehyphenate: "Am Zeilenende getrennte Wörter zusammenfügen",
    annotations: "Formularfelder und Anmerkungen einbeziehen (ausgefüllte Felder, Kommentare, Stempel)",
    bom: "Datei mit UTF-8-Byte-Order-Mark beginnen",
    pages: "Seiten",
    pagesHint: "alle, oder z. B. 1-3,7",
    queueLabel: "Dateien",
    waiting: "Wartet…",
    reading: "Startet…",
    progress: "Seite {page} von {pages}",
    done: "Fertig in {seconds} s.",
    counts: "{pages} Seiten · {words} Wörter · {chars} Zeichen",
    countsOne: "1 Seite · {words} Wörter · {chars} Zeichen",
    cancel: "Abbrechen",
    cancelled: "Abgebrochen.",
    remove: "Entfernen",
    download: "{name} herunterladen",
    copy: "Text kopieren",
    copied: "In die Zwischenablage kopiert.",
    copyFailed: "Kopieren fehlgeschlagen; markieren Sie die Vorschau und kopieren Sie sie von Hand.",
    preview: "Text von {name}",
    pageLabel: "Seite {number}",
    previewCut: "Die Vorschau zeigt die ersten {chars} Zeichen; der Download enthält alles.",
    warningsTitle: "Hinweise",
    scanWhole: "Diese PDF hat keine Textebene: Sie sieht aus wie ein Scan oder Foto. Sie braucht zuerst OCR (Texterkennung), daher gibt es nichts herunterzuladen.",
    scanPages: "Einige Seiten haben keine Textebene (gescannt oder leer): {pages}. Sie brauchen OCR; der übrige Text steht unten.",
    unmappedWhole: "Die Schriften dieser PDF geben nicht an, welche Zeichen ihre Buchstaben sind, daher lässt sich ihr Text nicht auslesen. Sie ist kein Scan; nur Texterkennung (OCR) der dargestellten Seiten könnte sie lesen.",
    unmappedPages: "Auf den Seiten {pages} geben die Schriften nicht an, welche Zeichen ihre Buchstaben sind; dieser Text fehlt unten.",
    ocrOffer: "Text erkennen (OCR)",
    ocrLanguage: "Sprache des Scans",
    ocrLanguages: { eng: "Englisch", deu: "Deutsch" },
    ocrSize: "einmaliger Download von {size}, danach offline",
    ocrProgress: "Erkenne Seite {page} ({image} von {images})…",
    ocrPreparing: "Texterkennung wird vorbereitet…",
    passwordNeeded: "Diese PDF ist mit einem Passwort geschützt.",
    passwordWrong: "Dieses Passwort öffnet die PDF nicht. Bitte erneut versuchen.",
    passwordLabel: "Passwort für {name}",
    passwordSubmit: "Öffnen",
    errors: {
      "not-pdf": "Diese Datei ist keine PDF, es gibt also keinen Text zu extrahieren.",
      damaged: "Diese PDF ist beschädigt und konnte nicht gelesen werden ({message}).",
      budget: "Diese PDF ist zu groß oder zu komplex für die eingebauten Sicherheitsgrenzen ({message}).",
      failed: "Beim Umwandeln dieser Datei ist etwas schiefgegangen ({message}).",
      unavailable: "Der Konverter ist nicht verfügbar ({message}).",
      "bad-options": "Der Seitenbereich ist ungültig: Verwenden Sie Seitenzahlen und Bereiche wie 1-3,7.",
      "font-data": "Diese Datei braucht Schriftdaten, die offline noch nicht verfügbar sind. Öffnen Sie Glyphline einmal mit Internetverbindung und versuchen Sie es erneut: danach klappt es auch offline.",
    },
    announceDone: "{name}: fertig, {pages} Seiten.",
    announceStart: "{name}: wird umgewandelt.",
  },
};

export const LANGUAGES = Object.keys(TEXTS);

/** The first supported language among `preferred` (e.g. navigator.languages), else English. */
export function chooseLanguage(preferred) {
  for (const tag of preferred || []) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (TEXTS[base]) return base;
  }
  return "en";
}

/** A translator for one language: t("progress", {page: 1, pages: 3}); nested keys with dots. */
export function translator(language) {
  const table = TEXTS[language] || TEXTS.en;
  return (key, values = {}) => {
    let text = key.split(".").reduce((node, part) => (node == null ? undefined : node[part]), table);
    if (text === undefined) text = key.split(".").reduce((node, part) => (node == null ? undefined : node[part]), TEXTS.en);
    if (typeof text !== "string") return key;
    return text.replace(/\{(\w+)\}/g, (match, name) => (name in values ? String(values[name]) : match));
  };
}

/** Numbers and sizes in the language's own format. */
export function formatNumber(language, value) {
  return new Intl.NumberFormat(language).format(value);
}

export function formatBytes(language, bytes) {
  return `${new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(bytes / 1e6)} MB`;
}
