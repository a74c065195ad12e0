/**
 * Backend environment variables: persisted in `dataDir/env.json` (written to a temp file, then
 * renamed), visible as `process.env` inside functions together with `CONVEX_CLOUD_URL` and
 * `CONVEX_SITE_URL`. A change is reported so that modules reading env at import time re-import.
 */
import fs from "node:fs";
import path from "node:path";

type EnvVars = Record<string, string>;

export class EnvStore {
  private vars: EnvVars;
  private readonly file: string;

  constructor(
    dataDir: string,
    private readonly urls: { cloudUrl: string; siteUrl: string },
    /** called after every change */
    private readonly onChange: () => void,
  ) {
    this.file = path.join(dataDir, "env.json");
    this.vars = this.read();
  }

  private read(): EnvVars {
    try {
      return JSON.parse(fs.readFileSync(this.file, "utf8")) as EnvVars;
    } catch {
      return {};
    }
  }

  private write() {
    const tmp = `${this.file}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(this.vars, null, 2));
    fs.renameSync(tmp, this.file);
  }

  /** `process.env` inside functions (and module imports). */
  functionEnv(): Record<string, string> {
    return { ...this.vars, CONVEX_CLOUD_URL: this.urls.cloudUrl, CONVEX_SITE_URL: this.urls.siteUrl };
  }

  // arrow functions: `engine.env` is handed out as an object of these three
  readonly list = (): Record<string, string> => ({ ...this.vars });

  readonly set = (name: string, value: string) => {
    if (!/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(name)) throw new Error(`Invalid environment variable name: ${name}`);
    this.vars[name] = String(value);
    this.write();
    this.onChange();
  };

  readonly remove = (name: string) => {
    delete this.vars[name];
    this.write();
    this.onChange();
  };
}
