/** The configuration file's name, looked for in the working directory. A leaf module. */
export const DEFAULT_CONFIG_FILE = "webfetch.config.yaml";
