// YAML for the card editor's controls: writes a JSON value (what the controls edit) as block
// YAML that the server's reader gives back unchanged. Plain words are written plain; any other
// text is double-quoted the JSON way (a subset of YAML's double-quoted style), so a name such
// as "yes", "12", "on" or "a: b" never turns into a boolean, a number or a mapping.
(() => {
  "use strict";
  // YAML 1.1 words (the server's reader) that would not read back as text.
  const RESERVED = /^(y|n|yes|no|on|off|true|false|null|~)$/i;
  const PLAIN = /^[A-Za-z_][A-Za-z0-9_\-]*( [A-Za-z0-9_\-]+)*$/;
  const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_\-]*$/;

  function quote(text) {
    // JSON leaves DEL and the C1 controls raw; the YAML reader refuses them unescaped.
    return JSON.stringify(text).replace(/[\u007f-\u009f]/g, (c) =>
      `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  }

  function scalar(value) {
    if (value === null || value === undefined) return "null";
    if (typeof value === "boolean") return value ? "true" : "false";
    if (typeof value === "number") {
      if (!Number.isFinite(value)) throw new Error("not a finite number");
      const text = String(value);
      // YAML 1.1 reads an exponent as a number only after a point: 1e-7 is written 1.0e-7.
      return /e/.test(text) && !/\./.test(text) ? text.replace("e", ".0e") : text;
    }
    const text = String(value);
    return PLAIN.test(text) && !RESERVED.test(text) ? text : quote(text);
  }

  function key(name) {
    return PLAIN_KEY.test(name) && !RESERVED.test(name) ? name : quote(name);
  }

  const isMap = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
  const isEmpty = (v) => (Array.isArray(v) ? v.length === 0 : isMap(v) && Object.keys(v).length === 0);
  const inline = (v) => (Array.isArray(v) ? "[]" : isMap(v) ? "{}" : scalar(v));

  function mapping(obj, indent) {
    const pad = " ".repeat(indent);
    const lines = [];
    for (const [name, value] of Object.entries(obj)) {
      if (value === undefined) continue;
      if (isEmpty(value) || (!Array.isArray(value) && !isMap(value))) {
        lines.push(`${pad}${key(name)}: ${inline(value)}`);
      } else if (Array.isArray(value)) {
        lines.push(`${pad}${key(name)}:`, ...sequence(value, indent));
      } else {
        lines.push(`${pad}${key(name)}:`, ...mapping(value, indent + 2));
      }
    }
    return lines;
  }

  // The items of a sequence at `indent`; a collection item starts on the dash's line.
  function sequence(items, indent) {
    const pad = " ".repeat(indent);
    const lines = [];
    for (const item of items) {
      if (isEmpty(item) || (!Array.isArray(item) && !isMap(item))) {
        lines.push(`${pad}- ${inline(item)}`);
        continue;
      }
      const inner = Array.isArray(item) ? sequence(item, indent + 2) : mapping(item, indent + 2);
      inner[0] = `${pad}- ${inner[0].slice(indent + 2)}`;
      lines.push(...inner);
    }
    return lines;
  }

  function dump(value) {
    if (!isMap(value)) throw new Error("a card document is a mapping");
    const lines = mapping(value, 0);
    return lines.length ? `${lines.join("\n")}\n` : "";
  }

  window.cardYaml = { dump };
})();
