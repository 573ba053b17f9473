import { describe, expect, it, vi } from "vitest";
import { chooseBackend } from "../../../../src/providers/backend";

const release = async () => "https://api.release.example";

describe("backend choice", () => {
  it("uses the offline backend in development when its health answers OK", async () => {
    const fetcher = vi.fn<typeof fetch>(async () => new Response("{}", { status: 200 }));
    expect(
      await chooseBackend({
        mode: "development",
        offlineBaseUrl: "http://127.0.0.1:8080",
        releaseBaseUrl: release,
        fetcher,
      }),
    ).toEqual({
      baseUrl: "http://127.0.0.1:8080",
      offline: true,
    });
    expect(fetcher.mock.calls[0][0]).toBe("http://127.0.0.1:8080/api/v1/health");
  });

  it("uses the offline backend in test mode too", async () => {
    const fetcher = vi.fn<typeof fetch>(async () => new Response("{}", { status: 200 }));
    expect((await chooseBackend({ mode: "test", offlineBaseUrl: "", releaseBaseUrl: release, fetcher })).offline).toBe(
      true,
    );
  });

  it("falls back to the release backend when the offline one is down or unhealthy", async () => {
    const down = vi.fn<typeof fetch>(async () => Promise.reject(new TypeError("connection refused")));
    expect(
      await chooseBackend({ mode: "development", offlineBaseUrl: "", releaseBaseUrl: release, fetcher: down }),
    ).toEqual({
      baseUrl: "https://api.release.example",
      offline: false,
    });
    const unhealthy = vi.fn<typeof fetch>(async () => new Response("{}", { status: 503 }));
    expect(
      (await chooseBackend({ mode: "development", offlineBaseUrl: "", releaseBaseUrl: release, fetcher: unhealthy }))
        .offline,
    ).toBe(false);
  });

  it("never probes in production", async () => {
    const fetcher = vi.fn<typeof fetch>();
    expect(await chooseBackend({ mode: "production", offlineBaseUrl: "", releaseBaseUrl: release, fetcher })).toEqual({
      baseUrl: "https://api.release.example",
      offline: false,
    });
    expect(fetcher).not.toHaveBeenCalled();
  });
});
