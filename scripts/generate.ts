/**
 * `npm run manifest [root]`: writes manifest.json, the README's tool table and tool-schemas/ (the steps'
 * JSON Schemas as tools/list serves them) from the registry, in the repository (or in `root`, which must
 * hold a README.md).
 */
import { readFile, writeFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { buildManifest, withToolTable } from "../src/manifest.js";
import { writeToolSchemas } from "../src/tools/listing-build.js";

const given = process.argv[2];
const root = given
  ? pathToFileURL(given.endsWith("/") ? given : `${given}/`)
  : new URL("../", import.meta.url);
await writeFile(new URL("manifest.json", root), `${JSON.stringify(buildManifest(), null, 2)}\n`);
const readmeUrl = new URL("README.md", root);
await writeFile(readmeUrl, withToolTable(await readFile(readmeUrl, "utf8")));
await writeToolSchemas(new URL("tool-schemas/", root));
process.stderr.write("manifest.json, the README tool table and tool-schemas/ are up to date.\n");
