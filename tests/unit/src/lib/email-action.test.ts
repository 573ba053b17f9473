import { describe, expect, it } from "vitest";
import { emailActionModes, parseEmailActionParams } from "../../../../src/lib/email-action";

const query = (values: Record<string, string>) => new URLSearchParams(values);

describe("email-action link parameters", () => {
  it.each(emailActionModes)("accepts mode %s with an API key and a code", (mode) => {
    expect(parseEmailActionParams(query({ apiKey: "k", oobCode: "c", mode, continueUrl: "https://portal/x" }))).toEqual(
      {
        ok: true,
        apiKey: "k",
        oobCode: "c",
        mode,
        continueUrl: "https://portal/x",
      },
    );
  });

  it("names every missing parameter", () => {
    expect(parseEmailActionParams(query({ mode: "verifyEmail" }))).toEqual({
      ok: false,
      error: "This link is incomplete: it has no apiKey, oobCode.",
    });
    expect(parseEmailActionParams(query({}))).toEqual({
      ok: false,
      error: "This link is incomplete: it has no apiKey, oobCode, mode.",
    });
  });

  it("treats an empty parameter as missing", () => {
    expect(parseEmailActionParams(query({ apiKey: "k", oobCode: "", mode: "verifyEmail" }))).toMatchObject({
      ok: false,
    });
  });

  it("refuses an unknown mode, case included", () => {
    expect(parseEmailActionParams(query({ apiKey: "k", oobCode: "c", mode: "deleteAccount" }))).toEqual({
      ok: false,
      error: 'This link asks for an unknown action ("deleteAccount").',
    });
    expect(parseEmailActionParams(query({ apiKey: "k", oobCode: "c", mode: "verifyemail" }))).toMatchObject({
      ok: false,
    });
  });

  it("has no continue URL when the link has none", () => {
    expect(parseEmailActionParams(query({ apiKey: "k", oobCode: "c", mode: "resetPassword" }))).toMatchObject({
      continueUrl: null,
    });
  });
});
