/**
 * A corpus of secret kinds in their real formats with random values,
 * generated at test time so no real-looking secret sits in the repository
 * (and trips secret scanners). Each entry is the text as a user would
 * have it (`text`) and the part that must not survive (`secret`).
 */

import { randomInt } from "node:crypto";

const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const DIGITS = "0123456789";
const ALNUM = UPPER + LOWER + DIGITS;
const HEX = "0123456789abcdef";
const B64 = `${ALNUM}+/`;
const B64URL = `${ALNUM}-_`;

const pick = (alphabet: string, n: number) =>
  Array.from({ length: n }, () => alphabet[randomInt(alphabet.length)]).join("");
const b64url = (s: string) => Buffer.from(s).toString("base64url");

export interface SecretSample {
  kind: string;
  /** The text as it appears in a session. */
  text: string;
  /** What must not survive redaction, in any part. */
  secret: string;
}

const same = (kind: string, secret: string): SecretSample => ({ kind, text: secret, secret });

/** One sample per kind, fresh random values on every call. */
export function secretCorpus(): SecretSample[] {
  const awsSecret = pick(B64, 40);
  const awsEnv = pick(B64, 40);
  const dbPassword = pick(ALNUM, 18);
  const keyBase = pick(HEX, 128);
  const curlPass = pick(ALNUM, 16);
  const pgPass = pick(ALNUM, 16);
  const azureKey = `${pick(B64, 86)}==`;
  const pemBody = Array.from({ length: 6 }, () => pick(B64, 64)).join("\n");
  const sshBody = Array.from({ length: 4 }, () => pick(B64, 70)).join("\n");
  const bearer = pick(ALNUM, 40);
  const jsonPassword = pick(ALNUM, 20);
  const webhook = `T${pick(UPPER, 8)}/B${pick(UPPER, 8)}/${pick(ALNUM, 24)}`;
  return [
    same("aws key id", `AKIA${pick(`${UPPER}${DIGITS}`, 16)}`),
    { kind: "aws secret (ini)", text: `aws_secret_access_key = ${awsSecret}`, secret: awsSecret },
    { kind: "aws secret (export)", text: `export AWS_SECRET_ACCESS_KEY=${awsEnv}`, secret: awsEnv },
    same("github classic", `ghp_${pick(ALNUM, 36)}`),
    same("github fine-grained", `github_pat_${pick(ALNUM, 22)}_${pick(ALNUM, 59)}`),
    same("gitlab", `glpat-${pick(B64URL, 20)}`),
    same("slack bot", `xoxb-${pick(DIGITS, 12)}-${pick(DIGITS, 13)}-${pick(ALNUM, 24)}`),
    {
      kind: "slack webhook",
      text: `https://hooks.slack.com/services/${webhook}`,
      // The fixed part is in any Slack URL; what matters is the path.
      secret: webhook,
    },
    same("openai", `sk-proj-${pick(B64URL, 48)}`),
    same("anthropic", `sk-ant-api03-${pick(B64URL, 93)}AA`),
    same("stripe live", `sk_live_${pick(ALNUM, 24)}`),
    same("google api key", `AIza${pick(B64URL, 35)}`),
    same("google oauth secret", `GOCSPX-${pick(B64URL, 28)}`),
    same("hugging face", `hf_${pick(ALNUM, 34)}`),
    same("npm", `npm_${pick(ALNUM, 36)}`),
    same("sendgrid", `SG.${pick(B64URL, 22)}.${pick(B64URL, 43)}`),
    same(
      "jwt",
      `${b64url('{"alg":"HS256","typ":"JWT"}')}.${b64url(`{"sub":"${pick(DIGITS, 10)}","n":"${pick(ALNUM, 12)}"}`)}.${pick(B64URL, 43)}`,
    ),
    same("twilio api key", `SK${pick(HEX, 32)}`),
    {
      kind: "azure storage",
      text: `DefaultEndpointsProtocol=https;AccountName=acct${pick(LOWER, 6)};AccountKey=${azureKey};EndpointSuffix=core.windows.net`,
      secret: azureKey,
    },
    { kind: ".env DB_PASSWORD", text: `DB_PASSWORD=${dbPassword}`, secret: dbPassword },
    { kind: ".env SECRET_KEY_BASE", text: `SECRET_KEY_BASE=${keyBase}`, secret: keyBase },
    {
      kind: "curl basic auth",
      text: `curl -u deploy:${curlPass} https://api.example.com/v1`,
      secret: curlPass,
    },
    {
      kind: "url credentials",
      text: `postgres://app:${pgPass}@db.example.com:5432/app`,
      secret: pgPass,
    },
    {
      kind: "rsa private key",
      text: `-----BEGIN RSA PRIVATE KEY-----\n${pemBody}\n-----END RSA PRIVATE KEY-----`,
      secret: pemBody,
    },
    {
      kind: "openssh private key",
      text: `-----BEGIN OPENSSH PRIVATE KEY-----\n${sshBody}\n-----END OPENSSH PRIVATE KEY-----`,
      secret: sshBody,
    },
    same("email", `${pick(LOWER, 9)}.${pick(LOWER, 7)}@${pick(LOWER, 8)}.org`),
    same("discord bot", `M${pick(ALNUM, 25)}.${pick(B64URL, 6)}.${pick(B64URL, 38)}`),
    same("telegram bot", `${pick(DIGITS, 10)}:AA${pick(B64URL, 33)}`),
    same("shopify", `shpat_${pick(HEX, 32)}`),
    same("digitalocean", `dop_v1_${pick(HEX, 64)}`),
    same("pypi", `pypi-AgEIcHlwaS5vcmc${pick(B64URL, 60)}`),
    same("docker hub", `dckr_pat_${pick(B64URL, 27)}`),
    same("mailgun", `key-${pick(HEX, 32)}`),
    same("linear", `lin_api_${pick(ALNUM, 40)}`),
    same("doppler", `dp.pt.${pick(ALNUM, 43)}`),
    same("new relic", `NRAK-${pick(`${UPPER}${DIGITS}`, 27)}`),
    same("vault", `hvs.${pick(B64URL, 90)}`),
    same("databricks", `dapi${pick(HEX, 32)}`),
    same("age", `AGE-SECRET-KEY-1${pick(`${UPPER}${DIGITS}`, 58)}`),
    { kind: "bearer header", text: `Authorization: Bearer ${bearer}`, secret: bearer },
    { kind: "json password", text: `{"password": "${jsonPassword}"}`, secret: jsonPassword },
  ];
}

/**
 * Pieces of `secret` that must not appear in an output: every 8-character
 * window of each line (a line break may be escaped differently per format).
 */
export function fragments(secret: string): string[] {
  const out = new Set<string>();
  for (const line of secret.split("\n"))
    for (let i = 0; i + 8 <= line.length; i++) out.add(line.slice(i, i + 8));
  return [...out];
}
