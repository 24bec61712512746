/**
 * The source session of the cross-harness matrix: a realistic 50-message
 * coding session, built once as a Common transcript. It started in Codex
 * (gpt-5-codex: reasoning summaries, one with encrypted content, no stop
 * reasons, OpenAI call ids) and was continued in Claude Code
 * (claude-opus-4-5: signed thinking, Anthropic ids, four usage counters, stop
 * reasons), the way txcript users move sessions. It holds text, thinking with
 * and without a signature, Bash/Read/Write/Edit/Raw calls, a failing command,
 * a failed read, a JSON result, parallel calls, an image from the user, usage
 * on every assistant turn and nanosecond timestamps. Deterministic.
 */

import type { Block, Json, Message, Meta, StopReason, Tool, Usage } from "../../src/common.js";
import { formatTimestamp, type Timestamp } from "../../src/time.js";
import type { Common, Transcript } from "../../src/transcript.js";

export const SESSION_ID = "3b9d2f4e-7a1c-4e5b-9d8f-6c2a1e0b7d43";
export const CWD = "/home/dana/shop";
/** 1x1 PNG, the "screenshot" the user attaches. */
export const SCREENSHOT =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
export const FIRST_PROMPT =
  "Customers report that the checkout total is sometimes one cent off for carts with discounts. Here is the screenshot from the bug report: can you find out why?";

const START = Date.UTC(2026, 8, 14, 8, 30, 0) / 1000;
/** Second `s` of the session; some instants carry micro- and nanoseconds, as agy writes them. */
function at(s: number): Timestamp {
  const nanos = s % 3 === 0 ? 0 : s % 3 === 1 ? 123_000_000 + s * 1000 : 987_654_321 - s;
  return formatTimestamp({ seconds: START + s, nanos });
}

interface Call {
  id: string;
  tool: Tool;
  result: Json;
  error?: true;
}

interface Turn {
  thinking?: { text: string; signature?: string; encrypted?: string };
  text?: string;
  calls: Call[];
  usage: Usage;
  stop?: StopReason;
}

const CART = `${CWD}/src/cart.ts`;
const CART_SOURCE = `import { toCents } from "./money";

export function total(lines: Line[], discount: number): number {
  let sum = 0;
  for (const line of lines) {
    sum += Number((line.price * line.qty * (1 - discount)).toFixed(2));
  }
  return sum;
}
`;

/** The Codex part: investigation. */
function codexTurns(): Turn[] {
  const u = (n: number): Usage => ({
    input_tokens: 2100 + 37 * n,
    output_tokens: 180 + 11 * n,
    cache_read_input_tokens: 11_264 + 512 * n,
  });
  return [
    {
      thinking: {
        text: "**Locating the totals code**\n\nStart from the repository state and the cart module.",
        encrypted: "gAAAAABo_cart_reasoning_1_opaque",
      },
      text: "I'll start by checking the working tree.",
      calls: [
        {
          id: "call_hT3kQ0cVb1",
          tool: { name: "Bash", command: "git status --short", workdir: CWD, timeout_ms: 10_000 },
          result: " M package-lock.json\n?? notes/\n",
        },
      ],
      usage: u(0),
    },
    {
      thinking: { text: "**Reading the cart module**" },
      text: "Now the cart module itself.",
      calls: [
        { id: "call_Qm8wZx2Lp4", tool: { name: "Read", file_path: CART }, result: CART_SOURCE },
      ],
      usage: u(1),
    },
    {
      thinking: { text: "Per-line rounding could drift; run the tests to see the failure." },
      calls: [
        {
          id: "call_Vr5nB7yTe9",
          tool: { name: "Bash", command: "npm test -- cart", workdir: CWD, timeout_ms: 120_000 },
          result:
            "FAIL test/cart.test.ts > total > applies a 15% discount\nAssertionError: expected 25.49 to be 25.5\n\nTests  1 failed | 11 passed (12)\n",
          error: true,
        },
      ],
      usage: u(2),
    },
    {
      text: "One test fails. Let me read the issue that reported it.",
      calls: [
        {
          id: "call_Gj2sD9fUa6",
          tool: {
            name: "Raw",
            tool_name: "mcp__github__get_issue",
            input: { owner: "dana", repo: "shop", issue_number: 1287 },
          },
          result: {
            number: 1287,
            title: "Checkout total off by one cent with discount codes",
            state: "open",
            labels: ["bug", "checkout"],
            comments: 4,
          },
        },
      ],
      usage: u(3),
    },
    {
      thinking: { text: "The helper in money.ts may already round to cents." },
      calls: [
        {
          id: "call_Ye4cK1rWn3",
          tool: { name: "Read", file_path: `${CWD}/src/money.ts`, offset: 1, limit: 40 },
          result:
            "export function toCents(amount: number): number {\n  return Math.round(amount * 100);\n}\n",
        },
      ],
      usage: u(4),
    },
    {
      text: "Where else is toFixed used?",
      calls: [
        {
          id: "call_Pz7hM3qXs8",
          tool: {
            name: "Raw",
            tool_name: "Grep",
            input: { pattern: "toFixed\\(", path: "src", output_mode: "content", "-n": true },
          },
          result:
            "src/cart.ts:6:    sum += Number((line.price * line.qty * (1 - discount)).toFixed(2));\nsrc/receipt.ts:18:  return amount.toFixed(2);\n",
        },
      ],
      usage: u(5),
    },
    {
      text: "Checking the old rounding notes and the source tree at once.",
      calls: [
        {
          id: "call_Lw6fR8tNb2",
          tool: { name: "Read", file_path: `${CWD}/docs/rounding.md` },
          result: `File does not exist: ${CWD}/docs/rounding.md`,
          error: true,
        },
        {
          id: "call_Dn1vJ5gHc7",
          tool: { name: "Bash", command: "ls src" },
          result: "cart.ts\nmoney.ts\nreceipt.ts\n",
        },
      ],
      usage: u(6),
    },
  ];
}

/** The Claude Code part: the fix and a regression test. */
function claudeTurns(): Turn[] {
  let n = 0;
  const turn = (t: Omit<Turn, "usage" | "thinking"> & { thinking?: string }): Turn => {
    n++;
    const out: Turn = {
      calls: t.calls,
      usage: {
        input_tokens: 6 + n,
        output_tokens: 240 + 17 * n,
        cache_read_input_tokens: 18_432 + 900 * n,
        // Claude Code writes 0 when nothing was added to the cache.
        cache_creation_input_tokens: n % 4 === 0 ? 0 : 310 + 25 * n,
      },
      stop: t.stop ?? "tool_use",
    };
    if (t.thinking !== undefined) {
      out.thinking = { text: t.thinking, signature: `EqMCCkYICBgCKkD${n}xR0v+Zp${n * 7}Tb/4QWn==` };
    }
    if (t.text !== undefined) out.text = t.text;
    return out;
  };
  const bash = (id: string, command: string, result: string, extra: Partial<Tool> = {}): Call => ({
    id,
    tool: { name: "Bash", command, ...extra } as Tool,
    result,
  });
  const turns: Turn[] = [
    turn({
      thinking: "Sum exact cents and round once: convert each line with toCents.",
      text: "I'll sum in integer cents and round once.",
      calls: [
        {
          id: "toolu_01A7dKqWn3Bx9Tz2Lp5Rv8Ms",
          tool: {
            name: "Edit",
            file_path: CART,
            old_string: "    sum += Number((line.price * line.qty * (1 - discount)).toFixed(2));",
            new_string: "    sum += toCents(line.price * line.qty * (1 - discount));",
          },
          result: `The file ${CART} has been updated.`,
        },
      ],
    }),
    turn({
      thinking: "The return value must go back to currency units.",
      calls: [
        {
          id: "toolu_01B2eLrXo4Cy0Ua3Mq6Sw9Nt",
          tool: {
            name: "Edit",
            file_path: CART,
            old_string: "  return sum;",
            new_string: "  return sum / 100;",
            replace_all: true,
          },
          result: `The file ${CART} has been updated. All occurrences of '  return sum;' were replaced.`,
        },
      ],
    }),
    turn({
      thinking: "A regression test with the exact cart from the issue.",
      text: "Adding a regression test with the cart from issue #1287.",
      calls: [
        {
          id: "toolu_01C3fMsYp5Dz1Vb4Nr7Tx0Ou",
          tool: {
            name: "Write",
            file_path: `${CWD}/test/cart-rounding.test.ts`,
            content:
              'import { expect, test } from "vitest";\nimport { total } from "../src/cart";\n\ntest("issue 1287", () => {\n  expect(total([{ price: 9.99, qty: 3 }], 0.15)).toBe(25.47);\n});\n',
          },
          result: `File created successfully at: ${CWD}/test/cart-rounding.test.ts`,
        },
      ],
    }),
    turn({
      thinking: "Run the new test and the old ones.",
      calls: [
        bash(
          "toolu_01D4gNtZq6Ea2Wc5Os8Uy1Pv",
          "npx vitest run test/cart-rounding.test.ts test/cart.test.ts",
          "Tests  13 passed (13)\n",
          { timeout_ms: 120_000, description: "Run the cart tests" },
        ),
      ],
    }),
    turn({
      text: "The web package has its own checkout tests.",
      calls: [
        bash("toolu_01E5hOuAr7Fb3Xd6Pt9Vz2Qw", "npm test -- checkout", "Tests  8 passed (8)\n", {
          workdir: `${CWD}/packages/web`,
        }),
      ],
    }),
    turn({
      thinking: "receipt.ts formats with toFixed too; check how it is called.",
      calls: [
        {
          id: "toolu_01F6iPvBs8Gc4Ye7Qu0Wa3Rx",
          tool: { name: "Read", file_path: `${CWD}/src/receipt.ts`, offset: 10, limit: 20 },
          result:
            "export function formatAmount(amount: number): string {\n  return amount.toFixed(2);\n}\n",
        },
      ],
    }),
    turn({
      thinking: "Formatting only, no arithmetic: leave it. Track the remaining work.",
      calls: [
        {
          id: "toolu_01G7jQwCt9Hd5Zf8Rv1Xb4Sy",
          tool: {
            name: "Raw",
            tool_name: "TodoWrite",
            input: {
              todos: [
                { content: "Round once in total()", status: "completed", activeForm: "Rounding" },
                { content: "Type-check", status: "in_progress", activeForm: "Type-checking" },
              ],
            },
          },
          result:
            "Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress.",
        },
      ],
    }),
    turn({
      thinking: "Type-check the whole project.",
      calls: [
        {
          id: "toolu_01H8kRxDu0Ie6Ag9Sw2Yc5Tz",
          tool: { name: "Bash", command: "npx tsc --noEmit", description: "Type-check" },
          result:
            "src/cart.ts(1,10): error TS2305: Module './money' has no exported member 'toCent'.\n",
          error: true,
        },
      ],
    }),
    turn({
      text: "A typo in an import elsewhere; the file is fine, so the error is stale. Rebuilding.",
      calls: [
        bash("toolu_01I9lSyEv1Jf7Bh0Tx3Zd6Ua", "rm -rf dist && npx tsc --noEmit", "", {
          run_in_background: false,
        }),
      ],
    }),
    turn({
      thinking: "Lint before committing.",
      calls: [
        {
          id: "toolu_01M3pWcIz5Nj1Fl4Xb7Dh0Ye",
          tool: { name: "Bash", command: "npm run lint" },
          result:
            "test/cart-rounding.test.ts:4:3  error  Missing trailing comma  comma-dangle\n\n1 problem (1 error, 0 warnings)\n",
          error: true,
        },
      ],
    }),
    turn({
      text: "Fixing the lint error.",
      calls: [
        {
          id: "toolu_01N4qXdJa6Ok2Gm5Yc8Ei1Zf",
          tool: {
            name: "Edit",
            file_path: `${CWD}/test/cart-rounding.test.ts`,
            old_string: "toBe(25.47);\n});",
            new_string: "toBe(25.47);\n},);",
          },
          result: `The file ${CWD}/test/cart-rounding.test.ts has been updated.`,
        },
      ],
    }),
    turn({
      calls: [bash("toolu_01O5rYeKb7Pl3Hn6Zd9Fj2Ag", "npm run lint", "No problems found.\n")],
    }),
    turn({
      thinking: "Clean now. Show the diff for the summary.",
      calls: [
        bash(
          "toolu_01J0mTzFw2Kg8Ci1Uy4Ae7Vb",
          "git diff --stat",
          " src/cart.ts                | 4 ++--\n test/cart-rounding.test.ts | 5 +++++\n 2 files changed, 7 insertions(+), 2 deletions(-)\n",
        ),
      ],
    }),
    turn({
      thinking: "Commit on the fix branch.",
      calls: [
        bash(
          "toolu_01K1nUaGx3Lh9Dj2Vz5Bf8Wc",
          'git commit -am "fix(cart): round the total once, in cents (#1287)"',
          "[fix/cart-rounding 4f2a9c1] fix(cart): round the total once, in cents (#1287)\n 2 files changed, 7 insertions(+), 2 deletions(-)\n",
        ),
      ],
    }),
    turn({
      calls: [
        bash(
          "toolu_01P6sZfLc8Qm4Io7Ae0Gk3Bh",
          "git push -u origin fix/cart-rounding",
          "branch 'fix/cart-rounding' set up to track 'origin/fix/cart-rounding'.\n",
          { workdir: CWD, timeout_ms: 60_000 },
        ),
      ],
    }),
    turn({
      text: "Opening the pull request.",
      calls: [
        {
          id: "toolu_01L2oVbHy4Mi0Ek3Wa6Cg9Xd",
          tool: {
            name: "Raw",
            tool_name: "mcp__github__create_pull_request",
            input: {
              owner: "dana",
              repo: "shop",
              title: "Round the cart total once, in cents",
              head: "fix/cart-rounding",
              base: "main",
            },
          },
          result: [{ type: "text", text: "Created pull request #1290" }],
        },
      ],
    }),
  ];
  return turns;
}

function assistant(t: Turn, s: number, model: string): Message {
  const content: Block[] = [];
  if (t.thinking) content.push({ type: "thinking", ...t.thinking });
  if (t.text !== undefined) content.push({ type: "text", text: t.text });
  for (const c of t.calls) content.push({ type: "tool_use", id: c.id, tool: c.tool });
  const m: Message = { role: "assistant", content, timestamp: at(s), model, usage: t.usage };
  if (t.stop !== undefined) m.stop_reason = t.stop;
  return m;
}

function results(t: Turn, s: number): Message {
  return {
    role: "user",
    content: t.calls.map(
      (c): Block =>
        c.error
          ? { type: "tool_result", tool_use_id: c.id, content: c.result, is_error: true }
          : { type: "tool_result", tool_use_id: c.id, content: c.result },
    ),
    timestamp: at(s),
  };
}

/** The 50-message source session. */
export function sourceSession(): Transcript<Common> {
  const meta: Meta = {
    id: SESSION_ID,
    timestamp: at(0),
    cwd: CWD,
    git_branch: "fix/cart-rounding",
    title: "Checkout total off by one cent",
    cli_version: "0.58.0",
    model: "gpt-5-codex",
  };
  const body: Message[] = [
    {
      role: "user",
      content: [
        { type: "text", text: FIRST_PROMPT },
        { type: "image", source: { type: "base64", media_type: "image/png", data: SCREENSHOT } },
      ],
      timestamp: at(0),
    },
  ];
  let s = 1;
  for (const t of codexTurns()) {
    body.push(assistant(t, s, "gpt-5-codex"));
    body.push(results(t, s + 2));
    s += 5;
  }
  body.push({
    role: "assistant",
    content: [
      {
        type: "text",
        text: "Found it: `total()` rounds every line to two decimals before summing, so a 15% discount on 3 × 9.99 loses a cent. Summing exact cents and rounding once fixes it.",
      },
    ],
    timestamp: at(s++),
    model: "gpt-5-codex",
    usage: { input_tokens: 2450, output_tokens: 96, cache_read_input_tokens: 15_360 },
  });
  body.push({
    role: "user",
    content: [{ type: "text", text: "Go ahead: fix it, add a regression test and open a PR." }],
    timestamp: at(s + 30),
  });
  s += 31;
  for (const t of claudeTurns()) {
    body.push(assistant(t, s, "claude-opus-4-5"));
    body.push(results(t, s + 2));
    s += 4;
  }
  body.push({
    role: "assistant",
    content: [
      { type: "thinking", text: "Done; summarize.", signature: "EqMCCkYICBgCKkDfinalSig==" },
      {
        type: "text",
        text: "Fixed and pushed: the total is summed in cents and rounded once; the regression test covers the cart from #1287 (PR #1290).",
      },
    ],
    timestamp: at(s),
    model: "claude-opus-4-5",
    stop_reason: "end_turn",
    usage: {
      input_tokens: 4,
      output_tokens: 61,
      cache_read_input_tokens: 30_208,
      cache_creation_input_tokens: 412,
    },
  });
  return { meta, body };
}
