/**
 * Codex copies under the user's provider (issue 30): Codex resumes only
 * sessions recorded under the provider it runs with, so a copy is written
 * with the `model_provider` of the user's config.toml (its active profile's
 * first), under `$CODEX_HOME`.
 */

import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, txcript } from "../support/cli.js";
import { tempDir } from "../support/tmp.js";

const SIMPLE = join(ROOT, "examples", "simple", "fix-flaky-test.json");
const FIXTURE = join(ROOT, "test/fixtures/codex/session.jsonl");

function rollouts(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".jsonl") && f.includes("rollout-"))
    .map((f) => join(dir, f));
}

function providerOf(file: string): unknown {
  const first = readFileSync(file, "utf8").split("\n")[0] ?? "";
  return JSON.parse(first).payload.model_provider;
}

function copyInto(codexHome: string, source = SIMPLE): string {
  const r = txcript(["continue", source, "--with", "codex", "--no-resume"], {
    env: { CODEX_HOME: codexHome },
  });
  expect(r.stderr).not.toMatch(/txcript:/);
  expect(r.status).toBe(0);
  const [file] = rollouts(join(codexHome, "sessions"));
  expect(file).toBeDefined();
  return file ?? "";
}

describe("a Codex copy's model_provider", () => {
  it("is the one config.toml names", () => {
    const home = tempDir("codex-provider-");
    writeFileSync(join(home, "config.toml"), 'model = "qwen3"\nmodel_provider = "ollama"\n');
    expect(providerOf(copyInto(home))).toBe("ollama");
  });

  it("is the active profile's when it names one", () => {
    const home = tempDir("codex-provider-");
    writeFileSync(
      join(home, "config.toml"),
      'model_provider = "ollama"\nprofile = "work"\n\n[profiles.work]\nmodel_provider = "azure"\n',
    );
    expect(providerOf(copyInto(home))).toBe("azure");
  });

  it("stays Codex's default without a config, or with one that is not TOML", () => {
    const home = tempDir("codex-provider-");
    expect(providerOf(copyInto(home))).toBe("openai");
    const broken = tempDir("codex-provider-");
    writeFileSync(join(broken, "config.toml"), "model_provider = [unclosed\n");
    expect(providerOf(copyInto(broken))).toBe("openai");
  });

  it("is the user's for a Codex-to-Codex copy too", () => {
    const home = tempDir("codex-provider-");
    const dir = join(home, "sessions", "2026", "08", "10");
    mkdirSync(dir, { recursive: true });
    const id = "019a1b2c-3d4e-7f00-8a9b-0c1d2e3f4a5b";
    writeFileSync(
      join(dir, `rollout-2026-08-10T12-00-00-${id}.jsonl`),
      readFileSync(FIXTURE, "utf8"),
    );
    writeFileSync(join(home, "config.toml"), 'model_provider = "openrouter"\n');
    const r = txcript(["continue", id, "--no-resume"], { env: { CODEX_HOME: home } });
    expect(r.status).toBe(0);
    const copy = rollouts(join(home, "sessions")).filter((f) => !f.includes(id));
    expect(copy).toHaveLength(1);
    expect(providerOf(copy[0] ?? "")).toBe("openrouter");
    // The session Codex wrote itself keeps the provider it ran under.
    expect(providerOf(join(dir, `rollout-2026-08-10T12-00-00-${id}.jsonl`))).toBe("openai");
  });
});
