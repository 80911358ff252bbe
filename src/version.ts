/** The package version, kept here so the User-Agent never needs to read package.json at run time. */
export const VERSION = "0.1.0";

/** The project's page, named in the default User-Agent so a site's operator can find who fetched. */
export const PROJECT_URL = "https://github.com/webfetch/webfetch";
