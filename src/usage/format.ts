/**
 * One message's usage as a short label, the same in every format (text
 * `view`, Markdown, HTML): input split into uncached and cached, so that
 * no format adds cache reads into "in" while another leaves them out.
 */

import type { Usage } from "../common.js";

/**
 * `1201 in + 9800 cache read + 300 cache write / 5 out`. Common's
 * input_tokens are the uncached prompt tokens (Anthropic's convention);
 * the cache parts are named only when non-zero.
 */
export function usageLabel(u: Usage): string {
  const parts = [`${u.input_tokens} in`];
  const read = u.cache_read_input_tokens ?? 0;
  const write = u.cache_creation_input_tokens ?? 0;
  if (read > 0) parts.push(`${read} cache read`);
  if (write > 0) parts.push(`${write} cache write`);
  return `${parts.join(" + ")} / ${u.output_tokens} out`;
}
