/**
 * Running things for the real-harness suite: the installed CLIs, each in
 * a temp HOME pointed at the mock server with every telemetry and update
 * switch off, and txcript's built CLI (dist/cli/main.cjs) on the same HOME.
 * Every environment is built from nothing, so no variable of the machine
 * (a real API key, a real store) reaches a CLI.
 */

import { spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = fileURLToPath(new URL("../../..", import.meta.url));
const BIN = join(REPO, "test", "real", "node_modules", ".bin");
export const TXCRIPT = join(REPO, "dist", "cli", "main.cjs");

/** The CLIs of test/real/package.json, by the harness id txcript gives them. */
export const CLIS = {
  claude_code: { bin: join(BIN, "claude"), pkg: "@anthropic-ai/claude-code" },
  codex: { bin: join(BIN, "codex"), pkg: "@openai/codex" },
  gemini_cli: { bin: join(BIN, "gemini"), pkg: "@google/gemini-cli" },
  opencode: { bin: join(BIN, "opencode"), pkg: "opencode-ai" },
  kilo: { bin: join(BIN, "kilo"), pkg: "@kilocode/cli" },
  qwen_code: { bin: join(BIN, "qwen"), pkg: "@qwen-code/qwen-code" },
  pi: { bin: join(BIN, "pi"), pkg: "@mariozechner/pi-coding-agent" },
} as const;
export type CliId = keyof typeof CLIS;

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Run a program without blocking the event loop (the mock server lives in this process). */
export function run(
  cmd: string,
  args: string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs?: number; input?: string },
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (d) => {
      stdout += d;
    });
    child.stderr?.on("data", (d) => {
      stderr += d;
    });
    if (options.input !== undefined) child.stdin?.end(options.input);
    const timer = setTimeout(() => {
      stderr += `\n[test: killed after ${options.timeoutMs ?? 120_000} ms]`;
      child.kill("SIGKILL");
    }, options.timeoutMs ?? 120_000);
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/** A temp HOME and a temp project directory (realpath: CLIs key sessions by it). */
export interface Sandbox {
  root: string;
  home: string;
  project: string;
  dispose(): void;
}
export function sandbox(name: string): Sandbox {
  const root = realpathSync(mkdtempSync(join(tmpdir(), `txcript-real-${name}-`)));
  const home = join(root, "home");
  const project = join(root, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  return { root, home, project, dispose: () => rmSync(root, { recursive: true, force: true }) };
}

/** What every CLI gets: a bare environment, and every proxy variable aimed at the mock so an escape is seen. */
export function baseEnv(home: string, mockUrl: string): Record<string, string> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: home,
    USER: "tester",
    LANG: "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
    TMPDIR: join(home, "tmp"),
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_STATE_HOME: join(home, ".local", "state"),
    DO_NOT_TRACK: "1",
    NO_PROXY: "127.0.0.1,localhost",
    no_proxy: "127.0.0.1,localhost",
  };
  for (const k of [
    "HTTPS_PROXY",
    "HTTP_PROXY",
    "ALL_PROXY",
    "https_proxy",
    "http_proxy",
    "all_proxy",
  ])
    env[k] = mockUrl;
  mkdirSync(env.TMPDIR!, { recursive: true });
  return env;
}

/** The Codex config that reaches only the mock: a custom provider over HTTP SSE, every network feature off. */
export const CODEX_PROVIDER = "txcript_mock";
export const CODEX_MODEL = "gpt-5.5";
function codexConfig(mockUrl: string): string {
  return `# written by test/real: the mock model server only
model = "${CODEX_MODEL}"
model_provider = "${CODEX_PROVIDER}"
check_for_update_on_startup = false
approval_policy = "never"
sandbox_mode = "danger-full-access"

[model_providers.${CODEX_PROVIDER}]
name = "txcript mock"
base_url = "${mockUrl}/v1"
wire_api = "responses"
env_key = "TXCRIPT_MOCK_API_KEY"
supports_websockets = false
request_max_retries = 0
stream_max_retries = 0

[analytics]
enabled = false

[feedback]
enabled = false

[otel]
exporter = "none"

[features]
plugins = false
remote_plugin = false
apps = false
plugin_sharing = false
api_key_model_discovery = false
tool_suggest = false
in_app_updates = false
daemon_auto_start = false
image_generation = false
browser_use = false
computer_use = false
goals = false
multi_agent = false
`;
}

/** The OpenCode model the mock provider serves. */
export const OPENCODE_MODEL = "mock/mock-model";

/** The model Qwen Code is told to use: a `gpt-` name, which Qwen Code takes as accepting images, so a copied image reaches the request (an unknown name gets `[image: …]` text instead). */
export const QWEN_MODEL = "gpt-mock";

/** The pi provider and model the mock serves (`~/.pi/agent/models.json`), and pi's flags for them. */
export const PI_ARGS = ["--provider", "mock", "--model", "mock-model", "--no-skills"];

/**
 * The config of OpenCode and of Kilo (an OpenCode fork, same keys): the mock
 * as an OpenAI-compatible provider, no update, no sharing, no web fetch.
 */
function opencodeFamilyConfig(mockUrl: string, schema: string) {
  return {
    $schema: schema,
    autoupdate: false,
    share: "disabled",
    model: OPENCODE_MODEL,
    small_model: OPENCODE_MODEL,
    permission: { edit: "allow", bash: "allow", webfetch: "deny" },
    provider: {
      mock: {
        npm: "@ai-sdk/openai-compatible",
        name: "txcript mock",
        options: { baseURL: `${mockUrl}/v1`, apiKey: "sk-mock" },
        models: {
          // Images allowed, so a converted user image reaches the request instead of an error note.
          "mock-model": {
            name: "mock-model",
            tool_call: true,
            attachment: true,
            modalities: { input: ["text", "image"], output: ["text"] },
          },
        },
      },
    },
  };
}

/** Write the CLI's config into the sandbox's HOME and return its environment. */
export function cliEnv(id: CliId, home: string, mockUrl: string): Record<string, string> {
  const env = baseEnv(home, mockUrl);
  switch (id) {
    case "claude_code":
      return {
        ...env,
        ANTHROPIC_BASE_URL: mockUrl,
        ANTHROPIC_API_KEY: "sk-ant-mock",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        DISABLE_TELEMETRY: "1",
        DISABLE_ERROR_REPORTING: "1",
        DISABLE_AUTOUPDATER: "1",
        DISABLE_BUG_COMMAND: "1",
        CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY: "1",
        // Tests run as root in containers; Claude Code allows skipping permissions there only in a sandbox.
        IS_SANDBOX: "1",
      };
    case "codex": {
      mkdirSync(join(home, ".codex"), { recursive: true });
      writeFileSync(join(home, ".codex", "config.toml"), codexConfig(mockUrl));
      return { ...env, CODEX_HOME: join(home, ".codex"), TXCRIPT_MOCK_API_KEY: "sk-mock" };
    }
    case "gemini_cli": {
      mkdirSync(join(home, ".gemini"), { recursive: true });
      const settings = {
        security: { auth: { selectedType: "gemini-api-key" } },
        general: { disableAutoUpdate: true, disableUpdateNag: true, enableAutoUpdate: false },
        telemetry: { enabled: false },
        privacy: { usageStatisticsEnabled: false },
        ide: { enabled: false },
      };
      writeFileSync(join(home, ".gemini", "settings.json"), JSON.stringify(settings, null, 2));
      return {
        ...env,
        GEMINI_API_KEY: "mock-key",
        GOOGLE_GEMINI_BASE_URL: mockUrl,
        GEMINI_CLI_TRUST_WORKSPACE: "true",
        GEMINI_TELEMETRY_ENABLED: "false",
        GEMINI_CLI_NO_RELAUNCH: "true",
      };
    }
    case "opencode": {
      const dir = join(home, ".config", "opencode");
      mkdirSync(dir, { recursive: true });
      const config = opencodeFamilyConfig(mockUrl, "https://opencode.ai/config.json");
      writeFileSync(join(dir, "opencode.json"), JSON.stringify(config, null, 2));
      // OpenCode installs its plugin package into each config directory at start-up; this one is
      // pre-installed from test/real so nothing is fetched from the registry.
      const plugin = join(REPO, "test", "real", "node_modules", "@opencode-ai", "plugin");
      writeFileSync(
        join(dir, "package.json"),
        JSON.stringify(
          { dependencies: { "@opencode-ai/plugin": packageVersion(plugin) } },
          null,
          2,
        ),
      );
      // Its install is skipped when the lockfile's root already names every declared dependency.
      writeFileSync(
        join(dir, "package-lock.json"),
        JSON.stringify({
          lockfileVersion: 3,
          packages: { "": { dependencies: { "@opencode-ai/plugin": packageVersion(plugin) } } },
        }),
      );
      mkdirSync(join(dir, "node_modules", "@opencode-ai"), { recursive: true });
      symlinkSync(plugin, join(dir, "node_modules", "@opencode-ai", "plugin"));
      return {
        ...env,
        OPENCODE_DISABLE_AUTOUPDATE: "1",
        OPENCODE_DISABLE_MODELS_FETCH: "1",
        OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
        OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
        OPENCODE_DISABLE_SHARE: "1",
        OPENCODE_DISABLE_CLAUDE_CODE: "1",
        OPENCODE_DISABLE_EXTERNAL_SKILLS: "1",
        OPENCODE_DISABLE_AUTOCOMPACT: "1",
        OPENCODE_DISABLE_PRUNE: "1",
        OPENCODE_EXPERIMENTAL_DISABLE_FILEWATCHER: "1",
      };
    }
    case "kilo": {
      // Kilo reads OpenCode's config keys from ~/.config/kilo/kilo.json.
      const dir = join(home, ".config", "kilo");
      mkdirSync(dir, { recursive: true });
      const config = {
        ...opencodeFamilyConfig(mockUrl, "https://app.kilo.ai/config.json"),
        // Only the mock: Kilo's own gateway provider (`kilo`) otherwise asks api.kilo.ai for its models.
        enabled_providers: ["mock"],
      };
      writeFileSync(join(dir, "kilo.json"), JSON.stringify(config, null, 2));
      return {
        ...env,
        KILO_DISABLE_AUTOUPDATE: "1",
        KILO_DISABLE_MODELS_FETCH: "1",
        KILO_DISABLE_LSP_DOWNLOAD: "1",
        KILO_DISABLE_DEFAULT_PLUGINS: "1",
        KILO_DISABLE_SHARE: "1",
        KILO_DISABLE_SESSION_INGEST: "1",
        KILO_DISABLE_PRESENCE: "1",
        KILO_DISABLE_CODEBASE_INDEXING: "1",
        KILO_DISABLE_CLAUDE_CODE: "1",
        KILO_DISABLE_EXTERNAL_SKILLS: "1",
        KILO_DISABLE_AUTOCOMPACT: "1",
        KILO_DISABLE_PRUNE: "1",
        KILO_EXPERIMENTAL_DISABLE_FILEWATCHER: "1",
        KILO_TELEMETRY_LEVEL: "off",
        KILO_NO_DAEMON: "1",
      };
    }
    case "qwen_code": {
      // OpenAI-compatible chat completions at the mock; telemetry, updates and the memory side agent off.
      mkdirSync(join(home, ".qwen"), { recursive: true });
      const settings = {
        security: { auth: { selectedType: "openai" } },
        general: { disableAutoUpdate: true, disableUpdateNag: true },
        telemetry: { enabled: false },
        privacy: { usageStatisticsEnabled: false },
        ide: { enabled: false },
        memory: { enableManagedAutoMemory: false },
      };
      writeFileSync(join(home, ".qwen", "settings.json"), JSON.stringify(settings, null, 2));
      return {
        ...env,
        OPENAI_API_KEY: "sk-mock",
        OPENAI_BASE_URL: `${mockUrl}/v1`,
        OPENAI_MODEL: QWEN_MODEL,
        QWEN_CODE_SUPPRESS_YOLO_WARNING: "1",
      };
    }
    case "pi": {
      // A custom provider speaking Anthropic's Messages API at the mock; offline, no version check.
      const agent = join(home, ".pi", "agent");
      mkdirSync(agent, { recursive: true });
      const models = {
        providers: {
          mock: {
            baseUrl: mockUrl,
            api: "anthropic-messages",
            apiKey: "sk-ant-mock",
            models: [{ id: "mock-model", input: ["text", "image"] }],
          },
        },
      };
      writeFileSync(join(agent, "models.json"), JSON.stringify(models, null, 2));
      return { ...env, PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1", PI_TELEMETRY: "0" };
    }
    default:
      return id satisfies never;
  }
}

/** txcript's environment: HOME only, no TXCRIPT_* or harness variable of the machine. */
export function txcriptEnv(
  home: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    LANG: "C.UTF-8",
    NO_COLOR: "1",
    ...extra,
  };
}

/** Run txcript's built CLI; fails the test on a non-zero exit unless `allowFail`. */
export async function txcript(
  args: string[],
  home: string,
  options: { cwd?: string; input?: string; allowFail?: boolean; env?: Record<string, string> } = {},
): Promise<Ran> {
  const r = await run(process.execPath, [TXCRIPT, ...args], {
    cwd: options.cwd ?? home,
    env: txcriptEnv(home, options.env),
    timeoutMs: 60_000,
    ...(options.input !== undefined ? { input: options.input } : {}),
  });
  if (!options.allowFail && r.status !== 0)
    throw new Error(`txcript ${args.join(" ")} exited ${r.status}\n${r.stderr}\n${r.stdout}`);
  return r;
}

/** The harness ids the built txcript knows (a harness on another branch enables its tests once merged). */
export async function knownHarnesses(): Promise<readonly string[]> {
  const path = join(REPO, "dist", "transcript.js");
  if (!existsSync(path)) throw new Error(`${path} is missing: run \`npm run build\` first`);
  const mod: { HARNESS_IDS?: readonly string[] } = await import(path);
  return mod.HARNESS_IDS ?? [];
}

/** The version in a package folder's package.json. */
export function packageVersion(dir: string): string {
  const parsed: unknown = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  return typeof parsed === "object" && parsed !== null && "version" in parsed
    ? String(parsed.version)
    : "?";
}

/** The installed version of a CLI package, from its package.json. */
export function cliVersion(id: CliId): string {
  return packageVersion(join(REPO, "test", "real", "node_modules", CLIS[id].pkg));
}
