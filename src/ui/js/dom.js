// Small DOM helpers: elements from a tag, attributes and children (text is always text, never
// HTML), labelled fields, tables that scroll on phones, pills, copy buttons, notices.
let ids = 0;

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "value") el.value = v;
    else if (k === "checked") el.checked = Boolean(v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c instanceof Node ? c : String(c));
  return el;
}

/** A label and its control, joined by id (so the label names the control for keyboards and readers). */
export function field(label, control, hint) {
  control.id = control.id || `f${++ids}`;
  return h("div", { class: control.type === "checkbox" ? "field check" : "field" },
    control.type === "checkbox" ? [control, h("label", { for: control.id }, label)] : [h("label", { for: control.id }, label), control],
    hint ? h("span", { class: "hint" }, hint) : null);
}

export function select(options, value, attrs = {}) {
  return h("select", attrs, options.map((o) => {
    const [v, text] = Array.isArray(o) ? o : [o, o];
    return h("option", { value: v, selected: v === value }, text);
  }));
}

export function table(headers, rows, empty = "Nothing here yet.") {
  if (!rows.length) return h("p", { class: "muted" }, empty);
  return h("div", { class: "scroll" }, h("table", {},
    h("thead", {}, h("tr", {}, headers.map((x) => h("th", { scope: "col" }, x)))),
    h("tbody", {}, rows.map((r) => h("tr", {}, r.map((c) => (c instanceof Node && c.tagName === "TD" ? c : h("td", {}, c))))))));
}

export const actions = (...buttons) => h("td", { class: "actions" }, buttons);

export function pill(text, kind) { return h("span", { class: kind ? `pill ${kind}` : "pill" }, text); }

export function when(ms) {
  if (!ms) return "never";
  return new Date(ms).toISOString().slice(0, 16).replace("T", " ") + " UTC";
}

export function toast(text) {
  const t = document.getElementById("toast");
  t.textContent = text;
  t.classList.add("show");
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => t.classList.remove("show"), 2500);
}

export function copyButton(text, label = "Copy") {
  return h("button", { type: "button", class: "secondary", onclick: async () => {
    try { await navigator.clipboard.writeText(text); toast("Copied"); } catch { toast("Copy failed: select the text instead"); }
  } }, label);
}

/** A one-time secret: shown in this box only, with a copy button. */
export function secretBox(title, text) {
  return h("div", { class: "secret", role: "alert" }, h("strong", {}, title), h("p", {}, "Copy it now: it will not be shown again."),
    h("p", {}, h("code", { class: "secret-value" }, text), " ", copyButton(text)));
}

export function errorText(err) { return h("p", { class: "error", role: "alert" }, err.message || String(err)); }

/** Runs a form's action with its button disabled; shows the error under the form. */
export function onSubmit(form, action) {
  const out = h("p", { class: "error", role: "alert" });
  form.append(out);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const buttons = form.querySelectorAll("button");
    buttons.forEach((b) => { b.disabled = true; });
    out.textContent = "";
    try { await action(); } catch (err) { out.textContent = err.message || String(err); } finally { buttons.forEach((b) => { b.disabled = false; }); }
  });
  return form;
}

/** A button whose click runs `action`; errors appear as a notice. */
export function button(label, action, cls) {
  const b = h("button", { type: "button", class: cls });
  b.textContent = label;
  b.addEventListener("click", async () => {
    b.disabled = true;
    try { await action(); } catch (err) { toast(err.message || String(err)); } finally { b.disabled = false; }
  });
  return b;
}
