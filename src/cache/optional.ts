/**
 * The stores' drivers are optional dependencies, loaded only when their store is opened; a
 * missing one is an INVALID_INPUT error (the configuration asks for a store this installation
 * cannot open) that says what to install.
 */
import { createRequire } from "node:module";
import { WebFetchError } from "../errors.js";

/** Loads the optional package `name` for `cache.store: store`. */
export function requireOptional<T>(name: string, store: string): T {
  const require = createRequire(import.meta.url);
  try {
    return require(name) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "MODULE_NOT_FOUND") {
      throw new WebFetchError(
        "INVALID_INPUT",
        `cache.store "${store}" needs the optional package ${name}: npm install ${name}`,
        { cause: error, retryable: false },
      );
    }
    throw error;
  }
}
