/**
 * The annotation codec (src/harness/antigravity/annotation.ts): the title
 * read out of agy's `annotations/<id>.pbtxt` text, in the forms the
 * protobuf text format allows, and a rendered annotation reading back as
 * the same title. Hostile text never throws.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  annotationTitle,
  mergeAnnotation,
  renderAnnotation,
} from "../../src/harness/antigravity/annotation.js";

describe("annotationTitle", () => {
  it("reads the title in the forms the text format allows", () => {
    expect(annotationTitle('title:  "Fix the flaky test"\n')).toBe("Fix the flaky test");
    expect(annotationTitle('title: "a" "b"\n')).toBe("ab");
    expect(annotationTitle("title: 'single'\n")).toBe("single");
    expect(
      annotationTitle(
        'last_user_view_time {\n  seconds: 1764000000\n  nanos: 5\n}\ntitle: "after"\n',
      ),
    ).toBe("after");
    expect(annotationTitle('# a comment\ntitle: "caf\\303\\251 \\"q\\""\n')).toBe('café "q"');
  });

  it("has no title when there is none, it is blank, or it is not a top-level string", () => {
    expect(annotationTitle(undefined)).toBeUndefined();
    expect(annotationTitle("")).toBeUndefined();
    expect(annotationTitle('title: "   "\n')).toBeUndefined();
    expect(annotationTitle('other { title: "nested" }\n')).toBeUndefined();
    expect(annotationTitle("title { x: 1 }\n")).toBeUndefined();
  });

  it("keeps a leading byte-order mark and reads a huge title whole", () => {
    expect(annotationTitle(renderAnnotation("\ufeffBOM"))).toBe("\ufeffBOM");
    const huge = "x".repeat(2_000_000);
    expect(annotationTitle(renderAnnotation(huge))).toBe(huge);
  });

  it("never throws on any text", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const t = annotationTitle(text);
        expect(t === undefined || typeof t === "string").toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it("reads back what renderAnnotation wrote, for every non-blank title", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 120, unit: "binary" }).filter((t) => t.trim() !== ""),
        (title) => {
          expect(annotationTitle(renderAnnotation(title))).toBe(title);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe("mergeAnnotation", () => {
  const viewed = 'title: "old"\nlast_user_view_time {\n  seconds: 1764000000\n  nanos: 5\n}\n';

  it("keeps the fields agy stores beside the title, and the new title wins", () => {
    const merged = mergeAnnotation(viewed, renderAnnotation("new"));
    expect(annotationTitle(merged)).toBe("new");
    expect(merged).toBe(
      'title: "new"\nlast_user_view_time {\n  seconds: 1764000000\n  nanos: 5\n}\n',
    );
  });

  it("drops only the title when nothing new is written, and is empty when nothing is left", () => {
    expect(mergeAnnotation(viewed, undefined)).toBe(
      "last_user_view_time {\n  seconds: 1764000000\n  nanos: 5\n}\n",
    );
    expect(mergeAnnotation('title: "only"\n', undefined)).toBe("");
    expect(mergeAnnotation(undefined, 'title: "t"\n')).toBe('title: "t"\n');
  });

  it("never throws, and the written title always wins, over any existing text", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 200 }),
        fc.string({ minLength: 1, maxLength: 40 }).filter((t) => t.trim() !== ""),
        (existing, title) => {
          expect(annotationTitle(mergeAnnotation(existing, renderAnnotation(title)))).toBe(title);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
