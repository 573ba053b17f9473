import { describe, expect, it } from "vitest";
import { portalActionLink } from "../../../../../server/services/mail/action-links";
import {
  invitationMessage,
  notificationMessage,
  passwordResetMessage,
  signInLinkMessage,
  verificationMessage,
} from "../../../../../server/services/mail/messages";

const PORTAL = "https://portal.example.com";
const LINK = `${PORTAL}/handle-email-action?mode=resetPassword&oobCode=code-1&apiKey=key-1`;

describe("portalActionLink", () => {
  it("points the emulator's link at our action page with mode, oobCode, our API key and the continueUrl", () => {
    const generated =
      "http://127.0.0.1:9099/emulator/action?mode=verifyEmail&lang=en&oobCode=abc-123&apiKey=fake-api-key&continueUrl=http%3A%2F%2F127.0.0.1%3A8080%2Fconfirm-account%3Fto%3D%252Fdashboard";
    const link = new URL(portalActionLink(generated, PORTAL, "web-key"));
    expect(`${link.origin}${link.pathname}`).toBe(`${PORTAL}/handle-email-action`);
    expect(Object.fromEntries(link.searchParams)).toEqual({
      mode: "verifyEmail",
      oobCode: "abc-123",
      apiKey: "web-key",
      continueUrl: "http://127.0.0.1:8080/confirm-account?to=%2Fdashboard",
      lang: "en",
    });
  });

  it("does the same for Firebase's hosted handler, under a path prefix", () => {
    const generated = "https://demo.firebaseapp.com/__/auth/action?mode=signIn&oobCode=xyz&apiKey=AIza&lang=en";
    expect(portalActionLink(generated, "https://example.com/portal", "AIza")).toBe(
      "https://example.com/portal/handle-email-action?mode=signIn&oobCode=xyz&apiKey=AIza&lang=en",
    );
  });

  it("refuses a link without a mode or a code rather than mailing a useless one", () => {
    expect(() => portalActionLink("https://example.com/__/auth/action?mode=signIn", PORTAL, "k")).toThrow(
      /without a mode or a code/,
    );
  });
});

describe("mail composers", () => {
  it("invites with the role, the address and a link to choose a password, in text and HTML", () => {
    const message = invitationMessage({
      to: "new@example.com",
      displayName: "Nia",
      role: "admin",
      link: LINK,
      portalUrl: PORTAL,
    });
    expect(message).toMatchObject({
      kind: "invitation",
      to: "new@example.com",
      subject: "You have been invited to Tuning Portal",
      link: LINK,
    });
    expect(message.text).toContain("Hello Nia,");
    expect(message.text).toContain("created a Tuning Portal account for you (new@example.com) as an administrator.");
    expect(message.text).toContain(`Choose my password: ${LINK}`);
    expect(message.text).toContain(`${PORTAL}/login`);
    expect(message.html).toContain(`href="${LINK.replace(/&/g, "&amp;")}"`);
    expect(invitationMessage({ to: "d@example.com", role: "dealer", link: LINK, portalUrl: PORTAL }).text).toContain(
      "as a dealer.",
    );
    expect(invitationMessage({ to: "c@example.com", role: "customer", link: LINK, portalUrl: PORTAL }).text).toContain(
      "Hello,\n",
    );
  });

  it("escapes what users typed in the HTML, and keeps it as typed in the text", () => {
    const message = verificationMessage({
      to: "a@example.com",
      displayName: `<img src=x onerror="alert(1)">`,
      link: LINK,
    });
    expect(message.html).not.toContain("<img");
    expect(message.html).toContain("Hello &lt;img src=x onerror=&quot;alert(1)&quot;&gt;,");
    expect(message.text).toContain(`Hello <img src=x onerror="alert(1)">,`);
  });

  it("says what each link is for in its subject", () => {
    expect(verificationMessage({ to: "a@example.com", link: LINK }).subject).toBe(
      "Confirm your email address for Tuning Portal",
    );
    expect(passwordResetMessage({ to: "a@example.com", link: LINK }).subject).toBe("Reset your Tuning Portal password");
    expect(signInLinkMessage({ to: "a@example.com", link: LINK }).subject).toBe("Your Tuning Portal sign-in link");
  });

  it("copies a notification with its title, body and in-app link, and says how to turn the copies off", () => {
    const message = notificationMessage({
      to: "a@example.com",
      title: "Quoted: Stage 1",
      body: "120.00 EUR, 3 days",
      link: "/tuning-requests/show/7",
      portalUrl: PORTAL,
    });
    expect(message.subject).toBe("Quoted: Stage 1");
    expect(message.text).toContain("120.00 EUR, 3 days");
    expect(message.link).toBe(`${PORTAL}/tuning-requests/show/7`);
    expect(message.text).toContain(`${PORTAL}/profile`);
    expect(notificationMessage({ to: "a@example.com", title: "T", body: "", link: null, portalUrl: PORTAL }).link).toBe(
      `${PORTAL}/notifications`,
    );
  });
});
