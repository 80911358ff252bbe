/** The package version, kept here so the User-Agent never needs to read package.json at run time. */
export const VERSION = "0.1.0";
