/**
 * CSS selectors a caller gives to scope a page: what `exclude` matches is removed before anything
 * else, and only what `include` matches (the outermost matches, in document order) is converted,
 * main-content extraction running inside each match, so a match is never dropped as a whole. Matching uses css-select over the
 * extraction tree and is bounded: past a step budget the selector is refused as too costly, so a
 * `:has()` over a hostile page of many elements cannot stall conversion.
 */
import { compile, type Options } from "css-select";
import { WebFetchError } from "../errors.js";
import { type DomElement, type DomNode, isElement, walkElements } from "./dom.js";
import { checkSelector } from "./selector-syntax.js";

export { checkSelector };

/** Steps (adapter calls) all selectors of one page may take before matching is refused. */
export const MAX_SELECTOR_STEPS = 5_000_000;

/** The selectors that scope a page. */
export interface PageSelectors {
  include?: readonly string[] | undefined;
  exclude?: readonly string[] | undefined;
}

/**
 * Scopes `body` to the selectors: excluded elements are removed in place; the outermost included
 * elements come back in document order (the body itself without include selectors). An include
 * selector that matches nothing is SELECTOR_NOT_FOUND naming it.
 */
export function applySelectors(body: DomElement, selectors: PageSelectors): DomElement[] {
  for (const selector of selectors.include ?? []) checkSelector(selector, "includeSelectors");
  for (const selector of selectors.exclude ?? []) checkSelector(selector, "excludeSelectors");
  const budget = { steps: 0 };
  for (const selector of selectors.exclude ?? []) {
    for (const element of matches(body, selector, budget)) element.remove();
  }
  const include = selectors.include ?? [];
  if (include.length === 0) return [body];
  const kept = new Set<DomElement>();
  for (const selector of include) {
    const found = matches(body, selector, budget);
    if (found.length === 0) {
      throw new WebFetchError(
        "SELECTOR_NOT_FOUND",
        `No element of the page matches the include selector ${JSON.stringify(selector)}`,
        { retryable: false },
      );
    }
    for (const element of found) kept.add(element);
  }
  const outermost: DomElement[] = [];
  walkElements(body, (element) => {
    if (!kept.has(element)) return true;
    outermost.push(element);
    return false;
  });
  return outermost;
}

/** The elements below `root` that `selector` matches, in document order. */
function matches(root: DomElement, selector: string, budget: { steps: number }): DomElement[] {
  const test = compile<DomNode, DomElement>(selector, { adapter: adapterFor(selector, budget) });
  const found: DomElement[] = [];
  walkElements(root, (element) => {
    if (test(element)) found.push(element);
    return true;
  });
  return found;
}

/** css-select's view of the extraction tree, counting its steps against `budget`. */
function adapterFor(
  selector: string,
  budget: { steps: number },
): NonNullable<Options<DomNode, DomElement>["adapter"]> {
  /** Counts `work` steps (a list of n nodes built costs n). */
  const step = (work = 1) => {
    budget.steps += work;
    if (budget.steps > MAX_SELECTOR_STEPS) {
      throw new WebFetchError(
        "INVALID_INPUT",
        `The selector ${JSON.stringify(selector)} is too costly to match on this page (over ${MAX_SELECTOR_STEPS} steps); use a simpler one`,
        { retryable: false },
      );
    }
  };
  const children = (node: DomNode): DomNode[] => {
    const out: DomNode[] = [];
    for (let child = node.firstChild; child !== null; child = child.nextSibling) out.push(child);
    step(out.length + 1);
    return out;
  };
  return {
    isTag: (node): node is DomElement => isElement(node),
    getAttributeValue: (element, name) => element.getAttribute(name) ?? undefined,
    getChildren: children,
    getName: (element) => element.localName.toLowerCase(),
    getParent(node) {
      step();
      const parent = node.parentNode;
      return isElement(parent) ? parent : null;
    },
    getSiblings(node) {
      const parent = node.parentNode;
      return parent ? children(parent) : [node];
    },
    prevElementSibling(node) {
      step();
      let previous = node.previousSibling;
      while (previous !== null && !isElement(previous)) previous = previous.previousSibling;
      return previous;
    },
    getText(node) {
      const text = node.textContent ?? "";
      step(text.length + 1);
      return text;
    },
    hasAttrib: (element, name) => element.hasAttribute(name),
    removeSubsets(nodes) {
      const unique = new Set(nodes);
      return [...unique].filter((node) => {
        for (let up = node.parentNode; up !== null; up = up.parentNode) {
          if (unique.has(up)) return false;
        }
        return true;
      });
    },
  };
}
