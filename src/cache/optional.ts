/**
 * The stores' drivers and the crawl queue's packages are optional dependencies, loaded only when
 * used; a missing one is an INVALID_INPUT error (the configuration asks for something this
 * installation cannot do) that says what to install.
 */
import { createRequire } from "node:module";
import { WebFetchError } from "../errors.js";

/** Loads the optional package `name` for `cache.store: store`. */
export function requireOptional<T>(name: string, store: string): T {
  return requirePackage<T>(name, `cache.store "${store}"`);
}

/** Loads the optional package `name`, which `purpose` (as the user would name it) needs. */
export function requirePackage<T>(name: string, purpose: string): T {
  const require = createRequire(import.meta.url);
  try {
    return require(name) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "MODULE_NOT_FOUND") {
      throw new WebFetchError(
        "INVALID_INPUT",
        `${purpose} needs the optional package ${name}: npm install ${name}`,
        { cause: error, retryable: false },
      );
    }
    throw error;
  }
}
