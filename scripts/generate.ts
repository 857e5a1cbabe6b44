/**
 * `npm run manifest`: writes manifest.json, the README's tool table and src/tools/listing.generated.ts
 * (the steps' JSON Schemas, made at build time) from the registry.
 */
import { execFileSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { buildManifest, withToolTable } from "../src/manifest.js";
import { buildStepListing, renderStepListing } from "../src/tools/listing-build.js";

const root = new URL("../", import.meta.url);
await writeFile(new URL("manifest.json", root), `${JSON.stringify(buildManifest(), null, 2)}\n`);
const readmeUrl = new URL("README.md", root);
await writeFile(readmeUrl, withToolTable(await readFile(readmeUrl, "utf8")));
const listing = fileURLToPath(new URL("src/tools/listing.generated.ts", root));
await writeFile(listing, renderStepListing(buildStepListing()));
execFileSync("npx", ["biome", "format", "--write", listing], { cwd: fileURLToPath(root), stdio: "inherit" });
process.stderr.write("manifest.json, the README tool table and the step listing are up to date.\n");
