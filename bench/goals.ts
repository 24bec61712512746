/**
 * Issue 33's goals, each as the bench that measures it prints it: the
 * figure as a ratio to a baseline measured in the same run (1: cold list
 * beside the native stand-in, 2: warm list beside its floor, 3: index
 * build beside load + toCommon, 5: a list after one change beside a warm
 * list, 6: peak RSS beside the session's size) or a size (3's peak RSS,
 * 4's index size), beside the goal and, for 3 and 4, the figures main
 * measured before the work on them (commit 575d8c1, one run of each bench
 * on a shared 2-core machine at a load average of 13 to 18). bench/run.ts
 * gathers every line `beside` prints at the end of `npm run bench`.
 */

/** A figure a bench reports, the goal it answers to, and main's figure before. */
interface Goal {
  /** What the figure is, in the bench's words. */
  what: string;
  /** "min": the figure should be at least `goal`; "max": at most. */
  sense: "min" | "max";
  goal: number;
  /** Main's figure at 575d8c1 (see above); undefined where main did not measure it. */
  before?: number;
  unit: "x" | "MB";
}

export const GOALS = {
  /** Goal 1, bench/list: cold `list --json` (empty cache) beside the native stand-in's discover. */
  listColdCpu: {
    what: "cold list beside native discover (CPU)",
    sense: "max",
    goal: 1,
    unit: "x",
  },
  listColdWall: {
    what: "cold list beside native discover (wall)",
    sense: "max",
    goal: 1,
    unit: "x",
  },
  /** Goal 2, bench/list: warm `list --json` beside the warm floor. */
  listWarmWall: { what: "warm list beside its floor (wall)", sense: "max", goal: 1.2, unit: "x" },
  listWarmCpu: { what: "warm list beside its floor (CPU)", sense: "max", goal: 1.2, unit: "x" },
  /** Goal 5, bench/scale: `list` after one session changed beside a warm list (growth: "near flat"). */
  scaleChange: {
    what: "list after one change beside a warm list",
    sense: "max",
    goal: 2,
    unit: "x",
  },
  /** Goal 6, bench/memory and bench/steady: peak RSS beside the session's size. */
  sessionPeak: { what: "peak RSS beside the session", sense: "max", goal: 3, unit: "x" },
  /** bench/index: first build (cold list + first query) in MB/s of source beside load + toCommon. */
  indexBuildRate: {
    what: "build rate beside load + toCommon (wall)",
    sense: "min",
    goal: 0.8,
    before: 0.28,
    unit: "x",
  },
  /** The same in CPU time (user + system): steadier than wall time on a loaded machine. */
  indexBuildCpu: {
    what: "load + toCommon CPU beside the build's CPU",
    sense: "min",
    goal: 0.8,
    unit: "x",
  },
  indexSize: {
    what: "index beside its sources",
    sense: "max",
    goal: 0.35,
    before: 0.34,
    unit: "x",
  },
  /** bench/index's text builds through the library, the worker let go at its RSS budget. */
  indexBuildRss: { what: "peak RSS of a build", sense: "max", goal: 256, before: 296, unit: "MB" },
  /** bench/index-size: the shipped schema's index beside its sources (1,000 agy conversations). */
  sizeShipped: {
    what: "shipped index beside its sources",
    sense: "max",
    goal: 0.35,
    before: 0.17,
    unit: "x",
  },
  /** bench/scale, 1,000 and 2,000 mixed sessions (`scale 1000 2000 3`; 20,000 unmeasured before). */
  scaleBuildRate1000: {
    what: "build rate beside load (1,000)",
    sense: "min",
    goal: 0.8,
    before: 0.53,
    unit: "x",
  },
  scaleBuildRate2000: {
    what: "build rate beside load (2,000)",
    sense: "min",
    goal: 0.8,
    before: 0.46,
    unit: "x",
  },
  scaleBuildRss: {
    what: "peak RSS of a first build",
    sense: "max",
    goal: 256,
    before: 181,
    unit: "MB",
  },
} satisfies Record<string, Goal>;

/** `figure` beside the goal's baseline and the goal itself, and whether it is met. */
export function beside(goal: Goal, figure: number): string {
  const show = (v: number) => (goal.unit === "x" ? `${v.toFixed(2)}x` : `${v.toFixed(0)} MB`);
  const met = goal.sense === "min" ? figure >= goal.goal : figure <= goal.goal;
  const before = goal.before === undefined ? "" : `, before ${show(goal.before)}`;
  const bound = goal.sense === "min" ? ">=" : "<=";
  return `${show(figure)} (goal ${bound} ${show(goal.goal)}${before}: ${met ? "met" : "not met"})`;
}
