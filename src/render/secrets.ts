/**
 * The credential formats txcript redacts on its own, besides secretlint's
 * recommended rules: one regular expression per kind. A named group `s`
 * marks the secret inside a wider match (a `.env` line keeps its name, a
 * URL its host); without it the whole match goes. Patterns tolerate the
 * backslashes of JSON-escaped and double-escaped text (`\"`, `\\\"`, `\\n`),
 * since tool output often quotes JSON inside JSON. Also the parser for a
 * user's own pattern file. Pure.
 */

import { InvalidRequestError } from "../errors.js";

export interface SecretPattern {
  kind: string;
  /** Compiled with the `g` and `d` flags (match indices for the `s` group). */
  re: RegExp;
  /** Whole-token kinds: a match is widened to the token around it. */
  token: boolean;
}

// Quote as written, JSON-escaped or double-escaped: `"`, `\"`, `\\\"`.
const Q = String.raw`\\*["']?`;
const ASSIGN = String.raw`${Q}\s*(?::=|[:=])\s*${Q}`;

/** Names of fields and variables whose value is a secret (the name ends with one of these). */
const SECRET_NAME =
  "(?:passw(?:or)?d|passphrase|pwd|secret|secret[_-]?key|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|auth[_-]?key|signing[_-]?key|encryption[_-]?key|master[_-]?key|license[_-]?key|client[_-]?secret|credentials?|key[_-]?base|salt|connection[_-]?string|account[_-]?key|sas[_-]?token|dsn)";

/** A whole JSON key (or field name) that names a secret. */
export const SECRET_FIELD = new RegExp(`^[A-Za-z0-9_.-]*?${SECRET_NAME}$`, "i");

const RAW: [kind: string, source: string, flags?: string][] = [
  [
    "private-key",
    String.raw`-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)`,
  ],
  ["aws-key-id", "(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Z0-9])"],
  [
    "aws-secret",
    `aws[_-]?secret(?:[_-]?access)?(?:[_-]?key)?${ASSIGN}(?<s>[A-Za-z0-9/+=]{30,})`,
    "i",
  ],
  ["anthropic", "sk-ant-[A-Za-z0-9_-]{20,}"],
  ["openai", "sk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}"],
  ["stripe", "(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{10,}|whsec_[A-Za-z0-9]{20,}"],
  ["google-api-key", "AIza[0-9A-Za-z_-]{35}"],
  ["google-oauth-secret", "GOCSPX-[A-Za-z0-9_-]{20,}"],
  ["huggingface", "(?:hf_|api_org_)[A-Za-z0-9]{30,}"],
  ["gitlab", "gl(?:pat|ptt|dt|rt|cbt|imt|oas|soat|ft)-[A-Za-z0-9_-]{20,}"],
  ["github", "gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,}"],
  ["twilio", "(?:AC|SK)[0-9a-f]{32}(?![0-9a-f])"],
  ["azure-storage", "(?:AccountKey|SharedAccessKey)=(?<s>[A-Za-z0-9+/=]{20,})"],
  ["azure-sas", "[?&]sig=(?<s>[A-Za-z0-9%+/=]{20,})"],
  ["slack", "xox[abprse]-[A-Za-z0-9-]{10,}"],
  ["slack-webhook", String.raw`https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9/_-]+`],
  ["npm", "npm_[A-Za-z0-9]{36}"],
  ["sendgrid", String.raw`SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}`],
  ["jwt", String.raw`eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}`],
  ["discord", String.raw`[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,}`],
  ["telegram", String.raw`\d{8,10}:AA[A-Za-z0-9_-]{33}`],
  ["shopify", "shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}"],
  ["digitalocean", "do[opr]_v1_[a-f0-9]{64}"],
  ["pypi", "pypi-AgE[A-Za-z0-9_-]{50,}"],
  ["dockerhub", "dckr_pat_[A-Za-z0-9_-]{20,}"],
  ["mailgun", "key-[0-9a-f]{32}"],
  ["linear", "lin_api_[A-Za-z0-9]{40}"],
  ["sentry", "sntr[ysu]_[A-Za-z0-9+/=_-]{30,}"],
  ["doppler", String.raw`dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}`],
  ["newrelic", "NRAK-[A-Z0-9]{27}"],
  ["vault", String.raw`hv[sb]\.[A-Za-z0-9_-]{24,}`],
  ["databricks", "dapi[a-f0-9]{32}"],
  ["age", "AGE-SECRET-KEY-1[0-9A-Z]{58}"],
  ["grafana", "gl(?:sa|c)_[A-Za-z0-9_=+/-]{32,}"],
  ["square", "sq0(?:atp|csp)-[A-Za-z0-9_-]{22,}"],
  ["url-credentials", String.raw`[a-z][a-z0-9+.-]*://(?<s>[^\s:@/"'\\]+:[^\s@/"'\\]+)@`, "i"],
  [
    "basic-auth",
    String.raw`(?:^|\s)(?:-u|--user|--basic-auth|--password)[\s=]+${Q}(?<s>[^\s"'\\]+)`,
  ],
  [
    "authorization",
    String.raw`authorization${ASSIGN}(?:basic|bearer|token|digest)\s+(?<s>[A-Za-z0-9._~+/=-]{8,})`,
    "i",
  ],
  ["bearer", String.raw`\bbearer\s+(?<s>[A-Za-z0-9._~+/-]{20,}=*)`, "i"],
  [
    "env-secret",
    String.raw`(?<![A-Za-z0-9])[A-Za-z0-9_.-]*?${SECRET_NAME}${ASSIGN}(?<s>[^\s"'\\,;]{3,})`,
    "i",
  ],
  [
    "email",
    String.raw`(?<![A-Za-z0-9._%+-])(?!git@)[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}`,
  ],
];

/** Kinds whose match is a token on its own (widened to the token around it if cut short). */
const NOT_TOKENS = new Set([
  "private-key",
  "slack-webhook",
  "url-credentials",
  "basic-auth",
  "authorization",
  "bearer",
  "env-secret",
  "aws-secret",
  "azure-storage",
  "azure-sas",
]);

export const BUILTIN: readonly SecretPattern[] = RAW.map(([kind, source, flags = ""]) => ({
  kind,
  re: new RegExp(source, `gd${flags}`),
  token: !NOT_TOKENS.has(kind),
}));

/**
 * A user's pattern file: one JavaScript regular expression per line,
 * optionally named `kind: ` first; `#` starts a comment line. A line that
 * does not compile is a one-line error naming the file and line.
 */
export function parsePatterns(text: string, file: string): SecretPattern[] {
  const out: SecretPattern[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const named = /^([a-z][a-z0-9-]{0,40}):\s+(.+)$/i.exec(line);
    const kind = named?.[1] ?? "custom";
    const source = named?.[2] ?? line;
    let re: RegExp;
    try {
      re = new RegExp(source, "gd");
    } catch (cause) {
      throw new InvalidRequestError(
        undefined,
        `line ${i + 1}: not a regular expression: ${cause instanceof Error ? cause.message : String(cause)}`,
        { file, cause },
      );
    }
    if (re.test("")) {
      throw new InvalidRequestError(undefined, `line ${i + 1}: the pattern matches empty text`, {
        file,
      });
    }
    out.push({ kind, re, token: false });
  });
  return out;
}
