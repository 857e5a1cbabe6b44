/** `npm run manifest`: writes manifest.json and the README's tool table from the registry. */
import { readFile, writeFile } from "node:fs/promises";
import { buildManifest, withToolTable } from "../src/manifest.js";

const root = new URL("../", import.meta.url);
await writeFile(new URL("manifest.json", root), `${JSON.stringify(buildManifest(), null, 2)}\n`);
const readmeUrl = new URL("README.md", root);
await writeFile(readmeUrl, withToolTable(await readFile(readmeUrl, "utf8")));
process.stderr.write("manifest.json and the README tool table are up to date.\n");
