// The card editor's controls: a card's effects, Bad Stuff, conditions and the rest built with
// form controls instead of YAML. Everything is drawn from the engine's JSON Schema of a card
// (fetched with plain words and example cards from the controls' address), so a new effect
// type or field shows up here with no change to this file.
//
// The controls edit the YAML box's own mapping (as JSON), never a copy: each change writes the
// whole mapping back into the YAML box (cardYaml.dump), which the live preview and the save
// read as before. A part the controls cannot show is kept as it is and shown as YAML. Edits
// made in the YAML come back through the preview's answer (`yaml_data`, the server's reading
// of the YAML), so both views always hold the same document. Without this script (or if the
// controls' address fails) the page is the YAML form it always was.
(() => {
  "use strict";
  const root = document.getElementById("card-controls");
  if (!root || !window.cardYaml) return;
  const form = root.closest("form");
  const yaml = form.querySelector("[name=document_yaml]");
  const yamlRow = form.querySelector('[data-field="document_yaml"]');
  const kindSelect = form.querySelector("[name=kind]");
  const switcher = document.getElementById("view-switch");
  const initial = document.getElementById("card-controls-data");

  let config = null;
  let model = initial ? JSON.parse(initial.textContent) : null;
  let modelText = yaml.value; // the YAML text `model` was read from or written to
  let view = "controls";
  let writing = false;
  let errors = [];
  let uid = 0;
  // What the controls added this visit (an effect, a condition): its empty fields say nothing
  // until the designer has been in them (focused and left) or tried to save.
  const fresh = new WeakSet();
  const touched = new WeakMap(); // a mapping or list -> its keys the designer focused and left
  let attempted = false;

  // --- the schema ------------------------------------------------------------------------

  function resolve(schema) {
    let s = schema || {};
    for (let i = 0; i < 20 && s.$ref; i += 1) {
      s = config.schema.$defs[s.$ref.split("/").pop()] || {};
    }
    return s;
  }

  // (schema without its null alternative, whether null was one)
  function unnull(schema) {
    const s = resolve(schema);
    if (!s.anyOf) return [s, false];
    const rest = s.anyOf.filter((a) => resolve(a).type !== "null");
    if (rest.length === s.anyOf.length) return [s, false];
    return [rest.length === 1 ? resolve(rest[0]) : { ...s, anyOf: rest }, true];
  }

  const isMap = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

  // A union of one-key mappings ({race: elf}, {all: [...]}): the conditions.
  function oneKeyVariants(s) {
    if (!s.oneOf || s.discriminator) return null;
    const variants = {};
    for (const member of s.oneOf) {
      const m = resolve(member);
      const keys = Object.keys(m.properties || {});
      if (m.type !== "object" || keys.length !== 1) return null;
      variants[keys[0]] = m.properties[keys[0]];
    }
    return variants;
  }

  function tagged(s) {
    if (!s.oneOf || !s.discriminator) return null;
    const variants = {};
    for (const [tag, ref] of Object.entries(s.discriminator.mapping || {})) {
      variants[tag] = resolve({ $ref: ref });
    }
    return { property: s.discriminator.propertyName, variants };
  }

  function shape(schema) {
    const s = resolve(schema);
    if (tagged(s)) return "tagged";
    if (oneKeyVariants(s)) return "onekey";
    if (s.anyOf) return "alternatives";
    if (s.const !== undefined) return "const";
    if (s.enum) return "enum";
    if (s.type === "integer" || s.type === "number") return "number";
    if (s.type === "boolean") return "bool";
    if (s.type === "string") return "text";
    if (s.type === "array") return resolve(s.items).enum ? "enumset" : "list";
    if (s.type === "object" && s.properties) return "object";
    return "unknown";
  }

  // Whether a value has the shape the schema's control shows (a loose check: the engine
  // judges the rest, and its errors land on the control).
  function fits(schema, value) {
    const s = resolve(schema);
    switch (shape(s)) {
      case "tagged": {
        const t = tagged(s);
        return isMap(value) && (value[t.property] === undefined || t.variants[value[t.property]] !== undefined);
      }
      case "onekey":
        return isMap(value) && Object.keys(value).length <= 1
          && Object.keys(value).every((k) => oneKeyVariants(s)[k] !== undefined);
      case "alternatives":
        return s.anyOf.some((a) => fits(a, value));
      case "const": return value === s.const;
      case "enum": return s.enum.includes(value);
      case "number": return typeof value === "number";
      case "bool": return typeof value === "boolean";
      case "text": return typeof value === "string";
      case "enumset": return Array.isArray(value) && value.every((v) => resolve(s.items).enum.includes(v));
      case "list": return Array.isArray(value);
      case "object": return isMap(value);
      default: return false;
    }
  }

  // --- words -------------------------------------------------------------------------------

  const humanize = (word) => {
    const text = String(word).replace(/_/g, " ");
    return text.charAt(0).toUpperCase() + text.slice(1);
  };
  const label = (name) => config.labels[name] || humanize(name); // sentence case: "Discard up to"
  const effectWords = (type) => config.effects[type] || { title: humanize(type), help: "" };
  const conditionWords = (key) => config.conditions[key] || { title: humanize(key), help: "" };

  // Names in the order the engine lists them (strength first, the composers last), so the
  // menus' groups come in a sensible order; names it does not list follow.
  function ordered(names, listed) {
    const order = Object.keys(listed || {});
    const rank = (n) => (order.includes(n) ? order.indexOf(n) : order.length);
    return [...names].sort((a, b) => rank(a) - rank(b));
  }

  // --- small builders ----------------------------------------------------------------------

  function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs)) {
      if (value === undefined || value === null || value === false) continue;
      if (name === "text") node.textContent = value;
      else if (name === "className") node.className = value;
      else node.setAttribute(name, value === true ? "" : String(value));
    }
    node.append(...children.filter((c) => c !== null && c !== undefined));
    return node;
  }

  const nextId = (path) => `ctl-${path.replace(/[^A-Za-z0-9]+/g, "-")}-${(uid += 1)}`;

  function option(value, text, selected) {
    return el("option", { value, selected: selected || undefined, text });
  }

  function help(words, example) {
    if (!words.help && !example) return null;
    const p = el("p", { className: "ctl-help" }, words.help || "");
    if (example) {
      p.append(" Example: ", el("a", { href: example.url, text: example.name, target: "_blank", rel: "noopener" }), ".");
    }
    return p;
  }

  function button(text, labelText, onClick, className = "ctl-button") {
    const b = el("button", { type: "button", className, "aria-label": labelText, text });
    b.addEventListener("click", onClick);
    return b;
  }

  // A row with a label, a control and room for its error; `path` is the document path the
  // engine names in its errors (effects[0].amount).
  function field(path, text, control, id, extra) {
    const row = el("div", { className: "ctl-field", "data-path": path });
    row.append(el("label", { for: id, text }), control);
    if (extra) row.append(extra);
    return row;
  }

  // --- the document ------------------------------------------------------------------------

  // The YAML box's text set by the script; the form's listeners (the preview, the line
  // numbers) hear it as an edit of the YAML.
  function write(text) {
    writing = true;
    yaml.value = text;
    yaml.dispatchEvent(new Event("input", { bubbles: true }));
    writing = false;
  }

  function changed(structural) {
    write(window.cardYaml.dump(model));
    modelText = yaml.value;
    const active = document.activeElement;
    record(!structural && typing(active) ? active.id : null, true);
    if (structural) draw();
  }

  // --- undo / redo: every version of the document since the page opened -------------------

  const clone = (v) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));
  const typing = (node) => Boolean(node && node.matches
    && node.matches("textarea, input:not([type=checkbox]):not([type=radio]):not([type=button]):not([type=submit]):not([type=file])"));
  // Each version: its text, the controls' reading of it when known, and what typed it (the
  // keystrokes of one box within a second make one version).
  const history = [{ text: yaml.value, model: clone(model), known: true, key: null, time: 0 }];
  let current = 0;
  const undoButton = button("Undo", undefined, () => step(-1));
  const redoButton = button("Redo", undefined, () => step(1));

  function record(key, known) {
    const top = history[current];
    if (top.text === yaml.value) return;
    const now = Date.now();
    if (!(key && current > 0 && top.key === key && now - top.time < 1000)) current += 1;
    history.splice(current, history.length, { text: yaml.value, model: known ? clone(model) : undefined, known, key, time: now });
    if (history.length > 300) {
      history.shift();
      current -= 1;
    }
    showHistory();
  }

  function showHistory() {
    undoButton.disabled = current === 0;
    redoButton.disabled = current === history.length - 1;
  }

  function step(delta) {
    const next = current + delta;
    if (next < 0 || next >= history.length) return;
    current = next;
    const version = history[current];
    version.time = 0; // typing after an undo starts a new version
    write(version.text);
    showHistory();
    if (!version.known) {
      if (view === "controls" && config) reread();
      return;
    }
    model = clone(version.model);
    modelText = version.text;
    if (view === "controls" && config) draw();
  }

  // Ctrl/Cmd+Z, Ctrl/Cmd+Shift+Z or Ctrl+Y; a text box keeps the browser's own undo.
  function onKey(event) {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || typing(event.target)) return;
    const key = event.key.toLowerCase();
    const redo = (key === "z" && event.shiftKey) || (key === "y" && !event.shiftKey);
    if (key !== "z" && !redo) return;
    event.preventDefault();
    step(redo ? 1 : -1);
  }

  function historyBar() {
    undoButton.setAttribute("aria-keyshortcuts", "Control+Z Meta+Z");
    redoButton.setAttribute("aria-keyshortcuts", "Control+Shift+Z Meta+Shift+Z Control+Y");
    undoButton.title = "Undo (Ctrl+Z)";
    redoButton.title = "Redo (Ctrl+Shift+Z)";
    showHistory();
    return el("div", { className: "ctl-history", role: "group", "aria-label": "Undo or redo edits", "data-testid": "edit-history" },
      undoButton, redoButton);
  }

  // The controls' model and the path an error names: the mapping or list holding its last
  // step, and whether it lies in something the controls just added.
  function locate(path) {
    const names = Array.from(path.matchAll(/[^.[\]]+/g), (m) => (/^\d+$/.test(m[0]) ? Number(m[0]) : m[0]));
    const last = names.pop();
    let parent = model;
    let isFresh = false;
    for (const name of names) {
      if (parent === null || typeof parent !== "object") return null;
      isFresh = isFresh || fresh.has(parent);
      parent = parent[name];
    }
    if (parent === null || typeof parent !== "object") return null;
    return { parent, last, isFresh: isFresh || fresh.has(parent) || fresh.has(parent[last]) };
  }

  // Whether a control's errors wait: just added, and the designer has not been in it yet.
  function quiet(path) {
    const spot = !attempted && locate(path);
    return Boolean(spot && spot.isFresh && !(touched.get(spot.parent) || new Set()).has(spot.last));
  }

  function touch(event) {
    const place = event.target.closest && event.target.closest("[data-path]");
    const spot = place && root.contains(place) && locate(place.dataset.path);
    if (!spot) return;
    if (!touched.has(spot.parent)) touched.set(spot.parent, new Set());
    touched.get(spot.parent).add(spot.last);
    if (errors.length) placeErrors();
  }

  // A slot: read and write one place of the document.
  function slot(parent, name) {
    return {
      get: () => parent[name],
      set: (value) => {
        if (value === undefined) {
          if (Array.isArray(parent)) parent.splice(name, 1);
          else delete parent[name];
        } else {
          parent[name] = value;
        }
      },
    };
  }

  function raw(path, value, note) {
    const box = el("div", { className: "ctl-raw", "data-path": path });
    box.append(
      el("p", { text: note || "Kept as written: the controls cannot show this part. Edit it in the YAML." }),
      el("pre", { className: "code", text: window.cardYaml.dump({ [path.split(".").pop()]: value }) }),
      button("Edit in YAML", undefined, () => setView("yaml")),
    );
    return box;
  }

  // --- controls by shape ---------------------------------------------------------------------

  // The control of one value; `opts`: {id, optional, label, only (allowed tags), noun}.
  function control(schema, at, path, opts) {
    const [s, nullable] = unnull(schema);
    const optional = opts.optional || nullable;
    const value = at.get();
    if (value !== undefined && value !== null && !fits(s, value)) return raw(path, value);
    if (value === null && !nullable) return raw(path, value);
    switch (shape(s)) {
      case "tagged": return taggedControl(s, at, path, opts);
      case "onekey": return conditionControl(s, at, path, { ...opts, optional });
      case "alternatives": return alternatives(s, at, path, { ...opts, optional });
      case "enum": return enumControl(s, at, path, { ...opts, optional });
      case "number": return numberControl(s, at, path, opts);
      case "bool": return nullable ? yesNoControl(s, at, path, opts) : boolControl(s, at, path, opts);
      case "text": return textControl(s, at, path, opts);
      case "enumset": return enumSet(s, at, path, opts);
      case "list": return listControl(s, at, path, { ...opts, optional });
      case "object": return objectFields(s, at, path, opts);
      case "const": return el("span", { className: "ctl-const", text: String(s.const) });
      default: return value === undefined ? el("span", { text: "—" }) : raw(path, value);
    }
  }

  function setOrDrop(at, value, schema, required) {
    const dflt = resolve(schema).default;
    at.set(value === undefined || (!required && dflt !== undefined && value === dflt) ? undefined : value);
  }

  function numberControl(s, at, path, opts) {
    const input = el("input", {
      type: "number", id: opts.id, inputmode: "numeric",
      min: s.minimum, max: s.maximum, step: s.type === "integer" ? 1 : "any",
      placeholder: s.default !== undefined && s.default !== null ? String(s.default) : undefined,
    });
    if (at.get() !== undefined && at.get() !== null) input.value = String(at.get());
    input.addEventListener("input", () => {
      const text = input.value.trim();
      const number = Number(text);
      at.set(text === "" ? undefined : Number.isFinite(number) && text !== "" ? number : text);
      changed(false);
    });
    return input;
  }

  function boolControl(s, at, path, opts) {
    const input = el("input", { type: "checkbox", id: opts.id });
    input.checked = at.get() === undefined ? Boolean(s.default) : Boolean(at.get());
    input.addEventListener("change", () => {
      setOrDrop(at, input.checked, s, opts.required);
      changed(false);
    });
    return input;
  }

  // A yes / no the card may also leave unsaid (null in the schema: draw_treasures' face_up),
  // so a checkbox, which has no third state, will not do.
  function yesNoControl(s, at, path, opts) {
    const select = el("select", { id: opts.id });
    const current = at.get();
    select.append(
      option("", "— (not said)", current === undefined || current === null),
      option("true", "Yes", current === true),
      option("false", "No", current === false),
    );
    select.addEventListener("change", () => {
      at.set(select.value === "" ? undefined : select.value === "true");
      changed(false);
    });
    return select;
  }

  function textControl(s, at, path, opts) {
    const long = (s.maxLength || 0) > 200;
    const input = el(long ? "textarea" : "input", {
      id: opts.id, type: long ? undefined : "text", maxlength: s.maxLength, rows: long ? 4 : undefined,
      spellcheck: long ? "true" : "false",
    });
    if (typeof at.get() === "string") input.value = at.get();
    input.addEventListener("input", () => {
      at.set(input.value === "" && opts.optional ? undefined : input.value);
      changed(false);
    });
    return input;
  }

  function enumControl(s, at, path, opts) {
    const select = el("select", { id: opts.id });
    const current = at.get();
    const blank = opts.optional || current === undefined;
    if (blank) {
      const dflt = s.default !== undefined && s.default !== null ? ` (${humanize(s.default)})` : "";
      select.append(option("", opts.optional ? `—${dflt}` : "Choose…", current === undefined));
    }
    for (const value of s.enum) select.append(option(value, humanize(value), value === current));
    select.addEventListener("change", () => {
      setOrDrop(at, select.value === "" ? undefined : select.value, s, opts.required);
      changed(false);
    });
    return select;
  }

  function enumSet(s, at, path, opts) {
    const box = el("div", { className: "ctl-checks", role: "group", "aria-label": opts.label });
    const values = resolve(s.items).enum;
    for (const value of values) {
      const id = nextId(`${path}-${value}`);
      const input = el("input", { type: "checkbox", id, value });
      input.checked = (at.get() || []).includes(value);
      input.addEventListener("change", () => {
        const list = [...(at.get() || [])].filter((v) => v !== value);
        if (input.checked) list.push(value);
        at.set(list.length || opts.required ? list : undefined);
        changed(false);
      });
      box.append(el("span", { className: "ctl-check" }, input, el("label", { for: id, text: value.replace(/-/g, " ") })));
    }
    return box;
  }

  // A value that may take several shapes (a number or "roll"; a word or a mapping).
  function alternatives(s, at, path, opts) {
    const options = s.anyOf.map((a) => resolve(a));
    const describe = (a) => (a.const !== undefined ? humanize(a.const)
      : a.enum ? "one of…" : a.type === "integer" ? "a number" : a.type === "string" ? "text"
        : Object.keys(a.properties || {}).map(humanize).join(", ") || a.title || "other");
    const box = el("div", { className: "ctl-alternatives" });
    const select = el("select", { id: opts.id });
    const value = at.get();
    const current = value === undefined ? -1 : options.findIndex((a) => fits(a, value));
    if (opts.optional || current === -1) select.append(option("", opts.optional ? "—" : "Choose…", current === -1));
    options.forEach((a, i) => select.append(option(String(i), describe(a), i === current)));
    box.append(select);
    if (current !== -1 && options[current].const === undefined) {
      const inner = control(options[current], at, path, { id: nextId(path), label: opts.label, required: true });
      inner.setAttribute("aria-label", `${opts.label}: ${describe(options[current])}`);
      box.append(inner);
    }
    select.addEventListener("change", () => {
      const chosen = options[Number(select.value)];
      if (select.value === "") at.set(undefined);
      else if (chosen.const !== undefined) at.set(chosen.const);
      else if (chosen.type === "integer" || chosen.type === "number") at.set(chosen.default ?? 1);
      else if (chosen.enum) at.set(chosen.enum[0]);
      else if (chosen.type === "object") at.set({});
      else at.set("");
      changed(true);
    });
    return box;
  }

  // A condition: which test, then its value; all / any hold a list of conditions, not one.
  function conditionControl(s, at, path, opts) {
    const variants = oneKeyVariants(s);
    const value = at.get();
    const key = isMap(value) ? Object.keys(value)[0] : undefined;
    const box = el("div", { className: "ctl-condition", "data-path": path });
    const select = el("select", { id: opts.id, "aria-label": opts.label });
    select.append(option("", opts.optional ? "— anyone, always —" : "Choose a condition…", key === undefined));
    const groups = {};
    for (const name of ordered(Object.keys(variants), config.conditions)) {
      const group = conditionWords(name).group || "Other";
      if (!groups[group]) groups[group] = el("optgroup", { label: group });
      groups[group].append(option(name, conditionWords(name).title, name === key));
    }
    select.append(...Object.values(groups));
    select.addEventListener("change", () => {
      const name = select.value;
      const next = name ? { [name]: starting(variants[name]) } : undefined;
      if (next) fresh.add(next);
      at.set(next);
      changed(true);
    });
    box.append(select);
    if (key !== undefined) {
      box.append(help(conditionWords(key), conditionWords(key).example) || "");
      const inner = slot(value, key);
      const [vs] = unnull(variants[key]);
      const id = nextId(`${path}.${key}`);
      const innerControl = control(vs, inner, `${path}.${key}`, { id, label: conditionWords(key).title, required: true, noun: "condition" });
      const words = (config.suggestions || {})[key];
      if (words && innerControl.tagName === "INPUT") {
        // The races, classes... the catalog's cards name, offered as the designer types.
        innerControl.setAttribute("list", `${id}-words`);
        box.append(el("datalist", { id: `${id}-words` }, ...words.map((w) => el("option", { value: w }))));
      }
      if (["list", "onekey", "object"].includes(shape(vs))) {
        box.append(el("div", { className: "ctl-nested", "data-path": `${path}.${key}` }, innerControl));
      } else {
        box.append(field(`${path}.${key}`, `${humanize(key)}`, innerControl, id));
      }
    }
    return box;
  }

  // What a new value of a schema starts as: empty lists and mappings, nothing else guessed.
  function starting(schema) {
    const [s] = unnull(schema);
    switch (shape(s)) {
      case "list": case "enumset": return [];
      case "object": case "onekey": return {};
      case "tagged": return {};
      case "bool": return s.default ?? true;
      case "enum": return s.default ?? s.enum[0];
      case "text": return s.default ?? "";
      default: return s.default ?? null; // a number, or one of several shapes: left to choose
    }
  }

  // An effect, an encoding...: what it is (a menu in plain words), then its fields.
  function taggedControl(s, at, path, opts) {
    const t = tagged(s);
    const value = at.get() || {};
    const tag = value[t.property];
    const isEffect = t.property === "type";
    const words = (name) => (isEffect ? effectWords(name) : { title: humanize(name), help: "" });
    const box = el("div", { className: "ctl-tagged", "data-path": path });
    const select = el("select", { id: opts.id, "aria-label": opts.label });
    if (tag === undefined) select.append(option("", "Choose…", true));
    const groups = {};
    for (const name of ordered(Object.keys(t.variants), isEffect ? config.effects : {})) {
      if (opts.only && !opts.only(name) && name !== tag) continue;
      const group = words(name).group || "";
      const target = group ? (groups[group] ||= el("optgroup", { label: group })) : select;
      target.append(option(name, words(name).title, name === tag));
    }
    select.append(...Object.values(groups));
    select.addEventListener("change", () => {
      // Fields the new type shares with the old keep their values (an amount, a condition).
      const next = { [t.property]: select.value };
      const props = t.variants[select.value].properties || {};
      for (const [k, v] of Object.entries(value)) if (k !== t.property && props[k]) next[k] = v;
      fresh.add(next);
      at.set(next);
      changed(true);
    });
    box.append(select);
    if (tag !== undefined) {
      box.append(help(words(tag), isEffect ? effectWords(tag).example : null) || "");
      box.append(objectFields(t.variants[tag], at, path, { skip: t.property }));
    }
    return box;
  }

  // Fields of a mapping: simple ones first, then conditions, then lists; keys the schema does
  // not know are kept and shown as YAML.
  function objectFields(s, at, path, opts = {}) {
    const value = at.get() || {};
    const box = el("div", { className: "ctl-fields" });
    const required = new Set(s.required || []);
    const weight = (name) => {
      const kind = shape(unnull(s.properties[name])[0]);
      return ["list"].includes(kind) ? 2 : ["onekey", "object", "tagged"].includes(kind) ? 1 : 0;
    };
    const names = Object.keys(s.properties).filter((n) => n !== opts.skip)
      .map((n, i) => [weight(n), i, n]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((x) => x[2]);
    for (const name of names) {
      const prop = s.properties[name];
      const p = `${path}.${name}`;
      const id = nextId(p);
      const text = label(name, prop);
      const sub = { get: () => at.get()?.[name], set: (v) => {
        const target = at.get() || {};
        if (v === undefined) delete target[name]; else target[name] = v;
        if (!at.get()) at.set(target);
      } };
      const kind = shape(unnull(prop)[0]);
      const opt = !required.has(name);
      const ctl = control(prop, sub, p, { id, label: text, optional: opt, required: !opt });
      if (kind === "list" || kind === "object") {
        const group = el("fieldset", { className: "ctl-group", "data-path": p }, el("legend", { text }), ctl);
        box.append(group);
      } else if (ctl.classList.contains("ctl-raw")) {
        box.append(el("div", { className: "ctl-field", "data-path": p }, el("span", { className: "ctl-label", text }), ctl));
      } else {
        box.append(field(p, text, ctl, id));
      }
    }
    for (const [name, v] of Object.entries(value)) {
      if (name !== opts.skip && !(name in s.properties)) box.append(raw(`${path}.${name}`, v, `"${name}" is not a field here; kept as written. Edit it in the YAML.`));
    }
    return box;
  }

  // A list: its items with buttons to move and remove each, and a way to add one.
  function listControl(s, at, path, opts) {
    const items = at.get() || [];
    const itemSchema = unnull(resolve(s).items)[0];
    const kind = shape(itemSchema);
    const noun = kind === "tagged" && tagged(itemSchema).property === "type" ? "effect"
      : kind === "onekey" ? "condition" : kind === "list" ? "option"
        // A mapping is named by its definition (Ability, RollOutcome: "roll outcome").
        : kind === "object" && itemSchema.title ? itemSchema.title.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase()
          : "entry";
    const box = el("div", { className: "ctl-list-box" });
    const list = el("ol", { className: "ctl-list" });
    items.forEach((item, i) => {
      const p = `${path}[${i}]`;
      const li = el("li", { className: "ctl-item", "data-path": p });
      const head = el("div", { className: "ctl-item-head" }, el("span", { className: "ctl-item-number", text: `${humanize(noun)} ${i + 1}` }));
      const move = (delta) => () => {
        const j = i + delta;
        if (j < 0 || j >= items.length) return;
        [items[i], items[j]] = [items[j], items[i]];
        changed(true);
        document.querySelector(`[data-path="${path}[${j}]"] .ctl-item-head button[data-move="${delta}"]`)?.focus();
      };
      const up = button("↑", `Move ${noun} ${i + 1} up`, move(-1));
      up.dataset.move = "-1";
      up.disabled = i === 0;
      const down = button("↓", `Move ${noun} ${i + 1} down`, move(1));
      down.dataset.move = "1";
      down.disabled = i === items.length - 1;
      head.append(up, down, button("Remove", `Remove ${noun} ${i + 1}`, () => {
        items.splice(i, 1);
        if (!items.length && opts.optional) at.set(undefined);
        changed(true);
      }, "ctl-button ctl-remove"));
      li.append(head);
      const id = nextId(p);
      const itemControl = control(itemSchema, slot(items, i), p, { id, label: `${humanize(noun)} ${i + 1}`, required: true, only: opts.only });
      // A bare input (a clause, a word) has no label row of its own: it is named by its place.
      if (["INPUT", "SELECT", "TEXTAREA"].includes(itemControl.tagName)) itemControl.setAttribute("aria-label", `${humanize(noun)} ${i + 1}`);
      li.append(itemControl);
      list.append(li);
    });
    box.append(list);
    box.append(adder(itemSchema, kind, noun, path, opts, (value) => {
      const target = at.get() || [];
      target.push(value);
      if (!at.get()) at.set(target);
      changed(true);
    }));
    return box;
  }

  function adder(itemSchema, kind, noun, path, opts, add) {
    const row = el("div", { className: "ctl-add" });
    if (kind === "tagged" || kind === "onekey") {
      const id = nextId(`${path}-add`);
      const select = el("select", { id });
      const t = kind === "tagged" ? tagged(itemSchema) : null;
      const names = ordered(t ? Object.keys(t.variants) : Object.keys(oneKeyVariants(itemSchema)), t ? config.effects : config.conditions);
      const words = (n) => (t ? (t.property === "type" ? effectWords(n) : { title: humanize(n) }) : conditionWords(n));
      select.append(option("", "Choose…", true));
      const groups = {};
      for (const name of names) {
        if (opts.only && !opts.only(name)) continue;
        const group = words(name).group || "";
        const target = group ? (groups[group] ||= el("optgroup", { label: group })) : select;
        target.append(option(name, words(name).title, false));
      }
      select.append(...Object.values(groups));
      row.append(el("label", { for: id, text: `Add ${noun === "effect" ? "an effect" : `a ${noun}`}` }), select,
        button("Add", `Add the chosen ${noun}`, () => {
          const name = select.value;
          if (!name) {
            select.focus();
            return;
          }
          if (t) {
            const next = { [t.property]: name };
            const v = t.variants[name];
            for (const req of v.required || []) if (req !== t.property) next[req] = starting(v.properties[req]);
            // A number nobody chose yet stays out (the engine then names it as missing).
            for (const [k, val] of Object.entries(next)) if (val === null) delete next[k];
            fresh.add(next);
            add(next);
          } else {
            const next = { [name]: starting(oneKeyVariants(itemSchema)[name]) };
            fresh.add(next);
            add(next);
          }
          const again = document.querySelector(`[data-path="${path}"] .ctl-add select, #${CSS.escape(id)}`);
          if (again) again.focus();
        }));
    } else {
      const article = /^[aeiou]/.test(noun) ? "an" : "a";
      row.append(button(`Add ${article} ${noun}`, undefined, () => add(starting(itemSchema))));
    }
    return row;
  }

  // --- the parts of the card ----------------------------------------------------------------

  function kindSchema() {
    const top = config.schema;
    const ref = top.discriminator && top.discriminator.mapping[kindSelect.value];
    return ref ? resolve({ $ref: ref }) : null;
  }

  function draw() {
    const focused = document.activeElement && root.contains(document.activeElement) ? document.activeElement.id : null;
    uid = 0;
    root.replaceChildren();
    if (model === null) {
      root.append(el("p", { className: "ctl-notice", "data-testid": "controls-unreadable",
        text: "The YAML does not read as a card's keys yet, so the controls cannot show it. Fix it in the YAML view." }),
      button("Open the YAML", undefined, () => setView("yaml")));
      return;
    }
    const s = kindSchema();
    if (!s) {
      root.append(el("p", { className: "ctl-notice", text: "Choose the card's kind above." }));
      return;
    }
    const kind = kindSelect.value;
    const onForm = (name) => (config.form_fields[name] || []).includes(kind);
    const names = Object.keys(s.properties).filter((n) => n !== "kind" && !onForm(n));
    names.sort((a, b) => {
      const ia = config.order.indexOf(a);
      const ib = config.order.indexOf(b);
      return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib);
    });
    const required = new Set(s.required || []);
    for (const name of names) {
      const prop = s.properties[name];
      const p = name;
      const id = nextId(p);
      const text = label(name, prop);
      const only = config.outcome_only.includes(name) ? (t) => Boolean(effectWords(t).outcome) : undefined;
      const opt = !required.has(name);
      const ctl = control(prop, slot(model, name), p, { id, label: text, optional: opt, required: !opt, only });
      const kindOf = shape(unnull(prop)[0]);
      if (kindOf === "list" || kindOf === "object" || kindOf === "tagged" || kindOf === "enumset" || ctl.classList.contains("ctl-raw")) {
        root.append(el("fieldset", { className: "ctl-part", "data-path": p, "data-part": name }, el("legend", { text }), ctl));
      } else {
        // One control (notes, a condition): its own label is the part's title.
        const part = field(p, text, ctl, id);
        part.classList.add("ctl-part", "ctl-part-single");
        part.dataset.part = name;
        root.append(part);
      }
    }
    // Keys no part shows (misspelt, of another kind, or also on the form): kept, as YAML.
    for (const [name, value] of Object.entries(model)) {
      if (names.includes(name)) continue;
      if (onForm(name) && value === null) {
        // A stat not known yet ("null" in the YAML, so never mistaken for a blank field).
        root.append(el("p", { className: "ctl-notice", "data-path": name,
          text: `${humanize(name)}: not known yet. Give it in the form above once it is known.` }));
        continue;
      }
      const why = onForm(name) ? `"${name}" is also a field of the form above; keep one.`
        : name in s.properties ? null : `"${name}" is not a part of a ${humanize(kind).toLowerCase()} card; kept as written.`;
      if (why) root.append(raw(name, value, `${why} Edit it in the YAML.`));
    }
    placeErrors();
    if (focused) document.getElementById(focused)?.focus();
  }

  // --- errors on their controls -------------------------------------------------------------

  function placeErrors() {
    root.querySelectorAll(".ctl-error").forEach((e) => e.remove());
    root.querySelectorAll("[aria-invalid]").forEach((e) => e.removeAttribute("aria-invalid"));
    root.querySelectorAll(".ctl-has-error").forEach((e) => e.classList.remove("ctl-has-error"));
    const places = Array.from(root.querySelectorAll("[data-path]"));
    for (const error of errors) {
      if (error.field || !error.path) continue;
      // The deepest control whose path the error's path starts with.
      let best = null;
      for (const place of places) {
        const p = place.dataset.path;
        const under = error.path === p || error.path.startsWith(`${p}.`) || error.path.startsWith(`${p}[`);
        if (under && (!best || p.length >= best.dataset.path.length)) best = place;
      }
      if (!best || quiet(best.dataset.path)) continue;
      best.classList.add("ctl-has-error");
      const own = best.querySelector(":scope > input, :scope > select, :scope > textarea, :scope > div > select");
      if (own) own.setAttribute("aria-invalid", "true");
      // At the control, the designer's sentence; the parser's path and words stay in the
      // YAML view and the API.
      const note = el("p", { className: "ctl-error", "data-testid": "control-error", text: error.sentence || error.message });
      best.append(note);
    }
  }

  // --- the two views --------------------------------------------------------------------

  function setView(next) {
    view = next;
    switcher.querySelectorAll("button").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.view === next)));
    root.hidden = next !== "controls";
    yamlRow.hidden = next !== "yaml";
    if (next === "controls") {
      if (modelText !== yaml.value) {
        reread();
      } else {
        draw();
      }
    }
  }

  // Edited as YAML since the controls last read it: ask the server to read it now.
  function reread() {
    root.replaceChildren(el("p", { className: "ctl-notice", text: "Reading the YAML…" }));
    form.dispatchEvent(new CustomEvent("card-refresh"));
  }

  form.addEventListener("card-preview", (event) => {
    const { body, yamlText } = event.detail;
    errors = body.errors || [];
    if ("yaml_data" in body && yamlText === yaml.value && modelText !== yaml.value) {
      model = body.yaml_data;
      modelText = yamlText;
      const version = history[current];
      if (version.text === yamlText && !version.known) Object.assign(version, { model: clone(model), known: true });
      if (view === "controls" && config) draw();
      return;
    }
    // The preview may answer before the controls' definitions have arrived: the controls are
    // drawn once they have (see the fetch below), with the errors kept here.
    if (!config) return;
    if (view === "controls" && modelText === yaml.value) {
      if (root.querySelector(".ctl-part, .ctl-notice") && !root.querySelector("[data-testid=controls-unreadable]")) placeErrors();
      else draw();
    }
  });
  yaml.addEventListener("input", () => {
    if (writing) return;
    errors = [];
    record("yaml", false);
  });
  form.addEventListener("keydown", onKey);
  root.addEventListener("focusout", touch);
  form.addEventListener("submit", () => {
    attempted = true;
    placeErrors();
  });
  // A stat given in the form replaces its "not known yet" (null) in the YAML.
  form.addEventListener("input", (event) => {
    const name = event.target.name;
    if (!config || !model || !name || !(name in config.form_fields) || event.target.value === "") return;
    if (model[name] === null) {
      delete model[name];
      changed(view === "controls");
    }
  });
  kindSelect.addEventListener("change", () => {
    if (view === "controls" && config) draw();
  });
  // An error's "line N" link opens the YAML before the editor moves the caret there.
  document.addEventListener("click", (event) => {
    if (event.target.closest && event.target.closest("a.line-link[data-line]")) setView("yaml");
  }, true);
  switcher.addEventListener("click", (event) => {
    const b = event.target.closest("button[data-view]");
    if (b) setView(b.dataset.view);
  });

  fetch(root.dataset.controlsUrl, { credentials: "same-origin" })
    .then((response) => (response.ok ? response.json() : Promise.reject(new Error(String(response.status)))))
    .then((body) => {
      config = body;
      switcher.hidden = false;
      switcher.after(historyBar());
      setView(model === null ? "yaml" : "controls");
      if (model === null) draw();
      root.dataset.ready = "true";
    })
    .catch(() => {
      // The YAML form stays as it is: everything can still be written there.
    });
})();
