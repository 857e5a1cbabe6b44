/**
 * The console page as a browser loads it from a running server: the printed login link spent for a session
 * cookie, the page, then every asset the page references and every asset those reference (the scripts'
 * lazy chunks and preloads, the stylesheets' url()s), each fetched as the browser would. Over HTTP only,
 * nothing imported from the checkout's src/.
 */

/** The content type each kind of asset must be served with (a script as anything else is not run). */
const TYPES: Record<string, RegExp> = {
  js: /^text\/javascript\b/,
  mjs: /^text\/javascript\b/,
  css: /^text\/css\b/,
  svg: /^image\/svg\+xml\b/,
  png: /^image\/png\b/,
  woff2: /^font\/woff2\b/,
};

export interface Loaded {
  url: string;
  status: number;
  contentType: string;
}

/** The session cookie a login link gives (303 to the page, with Set-Cookie). */
export async function spendLoginLink(link: string): Promise<{ cookie: string; location: string | null }> {
  const res = await fetch(link, { redirect: "manual" });
  const cookie = res.headers.getSetCookie().map((value) => value.split(";")[0] ?? "");
  if (res.status !== 303 || cookie.length === 0)
    throw new Error(`the login link answered ${res.status} with ${cookie.length} cookie(s)`);
  return { cookie: cookie.join("; "), location: res.headers.get("location") };
}

/** The addresses a page's HTML loads: scripts, stylesheets, preloads, icons, images (not data: URLs). */
export function htmlReferences(html: string): string[] {
  const tags = html.match(/<(script|link|img|source)\b[^>]*>/gi) ?? [];
  const refs = tags.flatMap((tag) =>
    [...tag.matchAll(/\b(?:src|href)\s*=\s*"([^"]+)"/gi)].map((m) => m[1] ?? ""),
  );
  return refs.filter((ref) => ref !== "" && !ref.startsWith("data:"));
}

/**
 * The files a built script or stylesheet loads, by the names the bundler writes in them: lazy chunks
 * (`import("./Chart-….js")`), the preload list (`"assets/index-….css"`) and CSS `url(…)`, resolved
 * against the file's own address.
 */
export function assetReferences(text: string, from: string): string[] {
  const names = /(?:\.\/|assets\/|url\(\s*["']?)([A-Za-z0-9_.-]+\.(?:js|mjs|css|svg|png|woff2))\b/g;
  return [...text.matchAll(names)].map((m) => new URL(m[1] ?? "", from).href);
}

/**
 * Loads the page at `base` with `cookie`, then every asset it reaches; the page's HTML and each asset's
 * status and content type. Each asset is fetched once.
 */
export async function loadPage(base: string, cookie: string): Promise<{ html: string; assets: Loaded[] }> {
  const page = await fetch(base, { headers: { cookie } });
  const html = await page.text();
  if (page.status !== 200 || !/^text\/html\b/.test(page.headers.get("content-type") ?? ""))
    throw new Error(`the page answered ${page.status} ${page.headers.get("content-type")}`);
  const queue = htmlReferences(html).map((ref) => new URL(ref, base).href);
  const loaded = new Map<string, Loaded>();
  while (queue.length > 0) {
    const url = queue.shift() as string;
    if (loaded.has(url)) continue;
    const res = await fetch(url, { headers: { cookie } });
    const contentType = res.headers.get("content-type") ?? "";
    loaded.set(url, { url, status: res.status, contentType });
    if (res.status === 200 && /javascript|css/.test(contentType))
      queue.push(...assetReferences(await res.text(), url));
    else await res.body?.cancel();
  }
  return { html, assets: [...loaded.values()] };
}

/** Whether an asset was served as its kind must be (by its extension). */
export function servedAsItsKind(asset: Loaded): boolean {
  const extension = new URL(asset.url).pathname.split(".").pop() ?? "";
  const type = TYPES[extension];
  return asset.status === 200 && type !== undefined && type.test(asset.contentType);
}
