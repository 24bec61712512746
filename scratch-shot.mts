import { readFileSync } from "node:fs";
import { launch, openPage } from "/work/wt/pages/test/browser/chromium.ts";
const [file, out, scheme, full] = process.argv.slice(2);
const s = await launch();
const o = await openPage(s, readFileSync(file!, "utf8"), { colorScheme: (scheme as "light") ?? "light" });
await o.page.screenshot({ path: out!, fullPage: full === "full" });
console.log("errors", o.errors, "requests", o.requests);
await s.close();
