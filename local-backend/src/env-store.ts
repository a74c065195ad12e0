/**
 * Backend environment variables: persisted in `dataDir/env.json` (written to a temp file, then
 * renamed), visible as `process.env` inside functions together with `CONVEX_CLOUD_URL` and
 * `CONVEX_SITE_URL`. A change is reported so that modules reading env at import time re-import.
 * The file holds secrets (signing keys, API keys): it is written readable by its owner only
 * (0600), in a data directory only its owner can enter (0700); `secureDataDir` also tightens both
 * when an older version left them world-readable.
 */
import fs from "node:fs";
import path from "node:path";

type EnvVars = Record<string, string>;

/** env.json: owner read/write only */
const ENV_FILE_MODE = 0o600;

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
    fs.writeFileSync(tmp, JSON.stringify(this.vars, null, 2), { mode: ENV_FILE_MODE });
    // `mode` applies only to a new file
    fs.chmodSync(tmp, ENV_FILE_MODE);
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

/** the data directory: owner only (it holds env.json, the database and the stored files) */
const DATA_DIR_MODE = 0o700;

/**
 * Creates the data directory readable by its owner only, and tightens one an older version
 * made world-readable, together with its env.json. Returns why that failed (a file system
 * without Unix modes, a directory of another user), or null.
 */
export function secureDataDir(dataDir: string): string | null {
  fs.mkdirSync(dataDir, { recursive: true, mode: DATA_DIR_MODE });
  try {
    fs.chmodSync(dataDir, DATA_DIR_MODE);
    const env = path.join(dataDir, "env.json");
    if (fs.existsSync(env)) fs.chmodSync(env, ENV_FILE_MODE);
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}
