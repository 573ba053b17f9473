import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../server/config";
import { maskedConfiguration, maskUrl } from "../../../server/routes/status";
import { errorOf } from "../../../server/services/queue";

describe("the configuration app info shows", () => {
  const secrets = {
    SMTP_URL: "smtps://mailer:smtp-Secret-1@smtp.example.com:465",
    DATABASE_URL: "postgres://portal:db-Secret-2@db.internal:5432/portal?sslmode=require&password=db-Secret-3",
    SECRETS_KEY: Buffer.alloc(32, 7).toString("base64"),
    STRIPE_SECRET_KEY: "sk_test_stripe-Secret-4",
    STRIPE_WEBHOOK_SECRET: "whsec_webhook-Secret-5",
    STRIPE_PUBLISHABLE_KEY: "pk_test_publishable",
    REDIS_URL: "redis://:redis-Secret-6@cache.internal:6379/2",
    S3_BUCKET: "portal-files",
    S3_ACCESS_KEY_ID: "s3-Secret-7",
    S3_SECRET_ACCESS_KEY: "s3-Secret-8",
  };
  const shown = maskedConfiguration(loadConfig({ NODE_ENV: "test", ...secrets }));
  const valueFor = (key: string) => shown.find((entry) => entry.key === key);

  it("never carries a secret's value", () => {
    const text = JSON.stringify(shown);
    for (const secret of [
      "smtp-Secret-1",
      "db-Secret-2",
      "db-Secret-3",
      secrets.SECRETS_KEY,
      "stripe-Secret-4",
      "webhook-Secret-5",
      "redis-Secret-6",
      "s3-Secret-7",
      "s3-Secret-8",
    ])
      expect(text).not.toContain(secret);
  });

  it("keeps a URL's host, user and database so it can be checked, masking its password and credential parameters", () => {
    expect(valueFor("smtpUrl")).toEqual({
      key: "smtpUrl",
      value: "smtps://mailer:••••@smtp.example.com:465",
      masked: true,
    });
    expect(valueFor("databaseUrl")).toEqual({
      key: "databaseUrl",
      value: "postgres://portal:••••@db.internal:5432/portal?sslmode=require&password=••••",
      masked: true,
    });
    expect(maskUrl("http://127.0.0.1:8080")).toBe("http://127.0.0.1:8080");
  });

  it("masks every setting named like a key, secret, password or token whole, and shows the rest", () => {
    for (const key of ["secretsKey", "stripeSecretKey", "stripeWebhookSecret", "stripePublishableKey", "webApiKey"])
      expect(valueFor(key), key).toEqual({ key, value: "••••", masked: true });
    expect(valueFor("port")).toEqual({ key: "port", value: "8080", masked: false });
    expect(valueFor("publicUrl")).toEqual({ key: "publicUrl", value: null, masked: false });
  });
});

describe("a failed attempt's error as pg-boss stores it", () => {
  it("is the message of a serialised Error, of a timeout, or the text", () => {
    expect(errorOf({ name: "Error", message: "boom", stack: "…" })).toBe("boom");
    expect(errorOf({ value: { message: "job failed by timeout in active state" } })).toBe(
      "job failed by timeout in active state",
    );
    expect(errorOf("pg-boss shut down while active")).toBe("pg-boss shut down while active");
    expect(errorOf(null)).toBeNull();
  });
});
