// A minimal XML well-formedness check for --xmlhelp output: declaration, balanced elements,
// quoted attributes without raw '<' or stray '&', and no text outside the root element.

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
}

const ENTITY = /&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g;

function decode(value: string): string {
  if (value.replace(ENTITY, "").includes("&")) throw new Error(`stray '&' in ${value}`);
  return value.replace(ENTITY, (_match, name: string) => {
    switch (name) {
      case "amp":
        return "&";
      case "lt":
        return "<";
      case "gt":
        return ">";
      case "quot":
        return '"';
      case "apos":
        return "'";
      default:
        return String.fromCodePoint(
          name.startsWith("#x") ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10),
        );
    }
  });
}

/** Parses the document or throws with the reason it is not well-formed. */
export function parseXml(text: string): XmlElement {
  let rest = text.replace(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n/, "");
  if (rest === text) throw new Error("missing XML declaration");
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  const tag = /^<(\/?)([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<]*")*)\s*(\/?)>/;
  while (rest.length > 0) {
    const whitespace = /^\s+/.exec(rest);
    if (whitespace) {
      rest = rest.slice(whitespace[0].length);
      continue;
    }
    const match = tag.exec(rest);
    if (!match) throw new Error(`not a tag at: ${rest.slice(0, 40)}`);
    rest = rest.slice(match[0].length);
    const [, closing, name = "", attributeText = "", selfClosing] = match;
    if (closing) {
      const open = stack.pop();
      if (open?.name !== name) throw new Error(`</${name}> closes <${open?.name}>`);
      continue;
    }
    const attributes: Record<string, string> = {};
    for (
      const [, key = "", value = ""] of attributeText.matchAll(/([A-Za-z_][\w.-]*)="([^"]*)"/g)
    ) {
      if (key in attributes) throw new Error(`duplicate attribute ${key}`);
      attributes[key] = decode(value);
    }
    const element: XmlElement = { name, attributes, children: [] };
    const parent = stack.at(-1);
    if (parent) parent.children.push(element);
    else if (root) throw new Error("second root element");
    else root = element;
    if (!selfClosing) stack.push(element);
  }
  if (stack.length > 0 || !root) throw new Error("unclosed elements");
  return root;
}
