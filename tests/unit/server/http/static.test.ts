import { describe, expect, it } from "vitest";
import { passwordPolicyUrl } from "../../../../server/http/static";

describe("the password policy's address in the runtime config", () => {
  it("names the identity toolkit's policy with the web API key", () => {
    expect(passwordPolicyUrl({ authEmulatorHost: undefined, webApiKey: "key 1" })).toBe(
      "https://identitytoolkit.googleapis.com/v2/passwordPolicy?key=key%201",
    );
  });

  it("names none under the Auth emulator, which has no policy to read", () => {
    expect(passwordPolicyUrl({ authEmulatorHost: "127.0.0.1:9099", webApiKey: "key 1" })).toBeNull();
  });
});
