import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { imageUrl } from "../../src/lib/image-proxy";
import { startTestApp, type TestApp } from "./support/harness";

/** The proxy reads no database: one run on PGlite covers it. */
describe("image proxy", () => {
  let test: TestApp;
  let images: string;
  let cache: string;

  const get = (url: string, headers: Record<string, string> = {}) => test.app.inject({ method: "GET", url, headers });

  beforeAll(async () => {
    test = await startTestApp("pglite");
    images = path.join(test.app.ctx.config.dataDir, "images");
    cache = path.join(test.app.ctx.config.dataDir, "image-cache");
    await mkdir(path.join(images, "cars"), { recursive: true });
    const red = { r: 199, g: 3, b: 30 };
    await sharp({ create: { width: 800, height: 600, channels: 3, background: red } })
      .jpeg()
      .toFile(path.join(images, "cars", "red car.jpg"));
    await writeFile(path.join(images, "notes.png"), "not an image at all");
  });
  afterAll(async () => {
    await test?.close();
    await rm(test.app.ctx.config.dataDir, { recursive: true, force: true });
  });

  it("resizes to the URL the app builds, as webp by default", async () => {
    const response = await get(imageUrl("/cars/red car.jpg", { width: 320 }));
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("image/webp");
    const metadata = await sharp(response.rawPayload).metadata();
    expect({ format: metadata.format, width: metadata.width, height: metadata.height }).toEqual({
      format: "webp",
      width: 320,
      height: 240,
    });
  });

  it("applies height, fit, format and quality", async () => {
    const response = await get(
      imageUrl("/cars/red car.jpg", {
        width: 100,
        height: 100,
        fit: "contain",
        background: "#ffffff",
        format: "png",
        quality: 80,
      }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("image/png");
    const metadata = await sharp(response.rawPayload).metadata();
    expect([metadata.width, metadata.height]).toEqual([100, 100]);
  });

  it("caches each result on disk and answers the same bytes again, or 304 for the ETag", async () => {
    const url = imageUrl("/cars/red car.jpg", { width: 200 });
    const first = await get(url);
    const files = await readdir(cache);
    const second = await get(url);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(await readdir(cache)).toEqual(files);
    expect(files.some((file) => file.endsWith(".webp"))).toBe(true);
    const revalidated = await get(url, { "if-none-match": String(first.headers.etag) });
    expect(revalidated.statusCode).toBe(304);
  });

  it("refuses a file that is not an image with 415", async () => {
    const response = await get(imageUrl("/notes.png", { width: 100 }));
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({
      statusCode: 415,
      message: "Unsupported media type",
      description: "The file is not an image the proxy can convert",
    });
  });

  it("refuses a width or height above twice the 2xl breakpoint with 400", async () => {
    expect((await get(imageUrl("/cars/red car.jpg", { width: 3072 }))).statusCode).toBe(200);
    const wide = await get(imageUrl("/cars/red car.jpg", { width: 3073 }));
    expect(wide.statusCode).toBe(400);
    expect(wide.json()).toMatchObject({
      message: "Image too large",
      description: "Width 3073 px is above the limit of 3072 px",
    });
    expect((await get(imageUrl("/cars/red car.jpg", { height: 4000 }))).json().description).toBe(
      "Height 4000 px is above the limit of 3072 px",
    );
  });

  it("takes modifiers only as the app writes them", async () => {
    for (const modifiers of [
      "h_100&w_100&f_webp",
      "w_100",
      "w_0&f_webp",
      "w_010&f_webp",
      "q_101&f_webp",
      "f_gif",
      "f_webp&b_red",
    ]) {
      const response = await get(`/_ipx/${modifiers}/cars/red%20car.jpg`);
      expect(response.statusCode, modifiers).toBe(400);
      expect(response.json().message).toBe("Invalid image modifiers");
    }
  });

  it("never leaves its folders", async () => {
    const attempts = [
      "/_ipx/f_webp/../pglite/PG_VERSION",
      "/_ipx/f_webp/cars/%2e%2e/%2e%2e/pglite/PG_VERSION",
      "/_ipx/f_webp/cars/..%2F..%2Fpglite/PG_VERSION",
      "/_ipx/f_webp/%2Fetc/passwd",
    ];
    for (const url of attempts) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().message, url).toMatch(/^Invalid image (path|modifiers)$/);
    }
  });

  it("answers 404 for an image that does not exist", async () => {
    const response = await get(imageUrl("/cars/blue car.jpg", { width: 100 }));
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      statusCode: 404,
      message: "Not found",
      description: "Image /cars/blue car.jpg does not exist",
    });
  });
});

/** Anyone may ask for any size of any image: the cache keeps only so many results, least recently used out. */
describe("image proxy cache limits", () => {
  let test: TestApp;
  let cache: string;
  const get = (url: string) => test.app.inject({ method: "GET", url });

  beforeAll(async () => {
    test = await startTestApp("pglite", { IMAGE_CACHE_MAX_FILES: "3" });
    const images = path.join(test.app.ctx.config.dataDir, "images");
    cache = path.join(test.app.ctx.config.dataDir, "image-cache");
    await mkdir(images, { recursive: true });
    await sharp({ create: { width: 400, height: 300, channels: 3, background: { r: 20, g: 90, b: 200 } } })
      .png()
      .toFile(path.join(images, "blue.png"));
  });
  afterAll(async () => test?.close());

  /** Requests the image at `width` and answers the cache file it added, if any. */
  async function fetchWidth(width: number): Promise<string | undefined> {
    const before = new Set(await readdir(cache).catch(() => []));
    const response = await get(imageUrl("/blue.png", { width }));
    expect(response.statusCode, response.body).toBe(200);
    return (await readdir(cache)).find((file) => !before.has(file));
  }

  it("removes the least recently used result past the count limit and keeps one used lately", async () => {
    const first = await fetchWidth(101);
    const second = await fetchWidth(102);
    const third = await fetchWidth(103);
    expect(await readdir(cache)).toHaveLength(3);
    expect(await fetchWidth(101), "a hit adds nothing").toBeUndefined();
    const fourth = await fetchWidth(104);
    expect((await readdir(cache)).sort()).toEqual([first, third, fourth].sort());
    expect(second).toBeDefined();
    // The removed result is made again when asked for, pushing out the next least recently used.
    expect(await fetchWidth(102)).toBe(second);
    expect((await readdir(cache)).sort()).toEqual([first, fourth, second].sort());
  });
});
