import { describe, expect, it, vi } from "vitest";
import { loadConfig } from "../../../server/config";
import { verifyIdTokenChecked, verifySessionCookieChecked } from "../../../server/services/identity";

/** What production needs for mail besides NODE_ENV. */
const MAIL = {
  SMTP_URL: "smtps://user:secret@smtp.example.com:465",
  MAIL_FROM: "Tuning Portal <no-reply@example.com>",
  PUBLIC_URL: "https://portal.example.com/",
};

describe("server configuration", () => {
  it("refuses to start in production while the Auth emulator variable is set", () => {
    expect(() =>
      loadConfig({ NODE_ENV: "production", ...MAIL, FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099" }),
    ).toThrow(/FIREBASE_AUTH_EMULATOR_HOST is set while NODE_ENV=production/);
  });

  it("starts in production without the emulator, and in development with it", () => {
    expect(loadConfig({ NODE_ENV: "production", ...MAIL }).mode).toBe("production");
    expect(loadConfig({ FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099" }).authEmulatorHost).toBe("127.0.0.1:9099");
  });

  it("refuses to start in production without SMTP_URL, MAIL_FROM or PUBLIC_URL, naming each missing one", () => {
    expect(() => loadConfig({ NODE_ENV: "production" })).toThrow(
      /NODE_ENV=production needs SMTP_URL, MAIL_FROM, PUBLIC_URL/,
    );
    expect(() => loadConfig({ NODE_ENV: "production", ...MAIL, SMTP_URL: "" })).toThrow(
      /NODE_ENV=production needs SMTP_URL so that/,
    );
    const config = loadConfig({ NODE_ENV: "production", ...MAIL });
    expect(config).toMatchObject({
      smtpUrl: MAIL.SMTP_URL,
      mailFrom: MAIL.MAIL_FROM,
      publicUrl: "https://portal.example.com",
    });
  });

  it("sends mail to the local inbox outside production, and checks PUBLIC_URL", () => {
    expect(loadConfig({}).smtpUrl).toBe("smtp://127.0.0.1:1025");
    expect(loadConfig({ NODE_ENV: "test" }).publicUrl).toBeUndefined();
    expect(loadConfig({ PUBLIC_URL: "https://example.com/portal/" }).publicUrl).toBe("https://example.com/portal");
    expect(() => loadConfig({ PUBLIC_URL: "ftp://example.com" })).toThrow(/PUBLIC_URL must be an http\(s\) address/);
    expect(() => loadConfig({ PUBLIC_URL: "portal" })).toThrow(/PUBLIC_URL must be the portal's address/);
  });

  it("defaults to port 8080, the .data folder and PGlite", () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.dataDir.endsWith(".data")).toBe(true);
    expect(config.databaseUrl).toBeUndefined();
  });

  it("trusts no proxy unless TRUST_PROXY names them, as addresses, CIDR ranges or range names", () => {
    expect(loadConfig({ NODE_ENV: "production", ...MAIL }).trustProxy).toEqual([]);
    expect(loadConfig({ TRUST_PROXY: " 10.0.0.0/8, 192.0.2.5 ,::1,fd00::/8,loopback" }).trustProxy).toEqual([
      "10.0.0.0/8",
      "192.0.2.5",
      "::1",
      "fd00::/8",
      "loopback",
    ]);
  });

  it.each(["true", "1", "*", "10.0.0.0/33", "proxy.example.com", "10.0.0.1/8/2"])("refuses TRUST_PROXY=%s", (value) => {
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY must list proxy addresses/);
  });

  describe("file storage", () => {
    const BUCKET = { S3_BUCKET: "portal", S3_ACCESS_KEY_ID: "id", S3_SECRET_ACCESS_KEY: "secret" };

    it("keeps files on disk without S3_BUCKET, and in the bucket with it and its keys", () => {
      expect(loadConfig({}).s3Bucket).toBeUndefined();
      expect(loadConfig({ ...BUCKET, S3_ENDPOINT: "http://127.0.0.1:4568/" })).toMatchObject({
        s3Bucket: "portal",
        s3Endpoint: "http://127.0.0.1:4568",
        s3Region: "us-east-1",
        s3AccessKeyId: "id",
        s3SecretAccessKey: "secret",
      });
      expect(loadConfig({ ...BUCKET, S3_REGION: "eu-central-1" }).s3Region).toBe("eu-central-1");
    });

    it("refuses a bucket without its keys, naming each missing one", () => {
      expect(() => loadConfig({ S3_BUCKET: "portal" })).toThrow(
        /S3_BUCKET is set without S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/,
      );
      expect(() => loadConfig({ ...BUCKET, S3_SECRET_ACCESS_KEY: "" })).toThrow(
        /S3_BUCKET is set without S3_SECRET_ACCESS_KEY,/,
      );
    });

    it("refuses storage variables without S3_BUCKET, naming them", () => {
      expect(() => loadConfig({ S3_ENDPOINT: "http://127.0.0.1:4568" })).toThrow(
        /S3_ENDPOINT is set without S3_BUCKET/,
      );
      expect(() => loadConfig({ S3_ACCESS_KEY_ID: "id", S3_SECRET_ACCESS_KEY: "secret" })).toThrow(
        /S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY are set without S3_BUCKET/,
      );
    });

    it("refuses an S3_ENDPOINT that is not an http(s) address", () => {
      expect(() => loadConfig({ ...BUCKET, S3_ENDPOINT: "127.0.0.1:4568" })).toThrow(/S3_ENDPOINT must be/);
    });
  });

  it("names a variable that is not a number", () => {
    expect(() => loadConfig({ PORT: "eighty" })).toThrow('PORT must be a whole number, got "eighty"');
  });
});

describe("token verification", () => {
  // The emulator checks revocation whatever the flag says, so only this test can catch a missing `true`.
  it("always asks the identity service to check revocation of ID tokens", async () => {
    const verifyIdToken = vi.fn().mockResolvedValue({ uid: "u" });
    await verifyIdTokenChecked({ verifyIdToken }, "token");
    expect(verifyIdToken).toHaveBeenCalledWith("token", true);
  });

  it("always asks the identity service to check revocation of session cookies", async () => {
    const verifySessionCookie = vi.fn().mockResolvedValue({ uid: "u" });
    await verifySessionCookieChecked({ verifySessionCookie }, "cookie");
    expect(verifySessionCookie).toHaveBeenCalledWith("cookie", true);
  });
});
