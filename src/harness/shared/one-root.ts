/**
 * The root of a store that keeps everything under one folder, and the
 * `roots` the index checks (just that folder): the two fields every such
 * store (Amp, Claude Code, Crush, Droid, Gemini CLI, Goose, Grok CLI, pi, Qwen Code)
 * set the same way.
 */

/** A store's one root folder, named again as its only `roots` entry. */
export abstract class OneRootStore {
  readonly roots: readonly string[];
  readonly root: string;

  constructor(root: string) {
    this.root = root;
    this.roots = [root];
  }
}
