// One streaming run in a fresh process, so its peak RSS is its own: `raw` (a plain fetch loop over
// nextPageToken) or `ours` (MarketoConnector.pages() from the build). Prints {ms, records, maxRssMb}.
import { MarketoConnector } from "../dist/connectors/marketo/connector.js";

const [mode, origin, clientId, clientSecret] = process.argv.slice(2);
const path = "/rest/v1/lists/1001/leads.json";
const query = { batchSize: "300" };

async function raw() {
  const tokenRes = await fetch(`${origin}/identity/oauth/token`, {
    method: "POST",
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: clientId,
      client_secret: clientSecret,
    }),
  });
  const { access_token: token } = await tokenRes.json();
  let records = 0;
  let next;
  do {
    const params = new URLSearchParams(query);
    if (next) params.set("nextPageToken", next);
    const res = await fetch(`${origin}${path}?${params}`, { headers: { authorization: `Bearer ${token}` } });
    const page = await res.json();
    if (!page.success) throw new Error("raw page failed");
    records += page.result.length;
    next = page.nextPageToken;
  } while (next);
  return records;
}

async function ours() {
  const connector = new MarketoConnector({
    clientId,
    clientSecret,
    restEndpoint: `${origin}/rest`,
    callsPerWindow: 1_000_000_000,
    dailyQuota: 1_000_000_000,
  });
  let records = 0;
  // Explicit caps: the read is meant to go to the end, whatever pages()'s defaults are.
  const options = {
    maxPages: Number.POSITIVE_INFINITY,
    maxItems: Number.POSITIVE_INFINITY,
    maxBytes: Number.POSITIVE_INFINITY,
  };
  for await (const page of connector.pages({ method: "GET", path, query }, options))
    records += page.result.length;
  return records;
}

const start = performance.now();
const records = mode === "raw" ? await raw() : await ours();
const ms = performance.now() - start;
process.stdout.write(`${JSON.stringify({ ms, records, maxRssMb: process.resourceUsage().maxRSS / 1024 })}\n`);
