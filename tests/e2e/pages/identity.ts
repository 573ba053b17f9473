import { randomBytes } from "node:crypto";
import { type APIRequestContext, test as base, expect, type Page } from "@playwright/test";

export const PASSWORD = "Gearbox-42";

export function newEmail(label: string): string {
  return `${label}-${randomBytes(4).toString("hex")}@example.test`;
}

interface OobCode {
  email: string;
  oobCode: string;
  oobLink: string;
  requestType: string;
}

/**
 * The Auth emulator behind the page (its address is in the page's /config.json): the links a user
 * would have been emailed, and the account changes an administrator would make.
 */
export class IdentityEmulator {
  private constructor(
    private readonly request: APIRequestContext,
    readonly url: string,
    readonly apiKey: string,
    readonly projectId: string,
  ) {}

  static async of(request: APIRequestContext): Promise<IdentityEmulator> {
    const config = await (await request.get("/config.json")).json();
    return new IdentityEmulator(request, config.authEmulatorUrl, config.firebase.apiKey, config.firebase.projectId);
  }

  private async codes(): Promise<OobCode[]> {
    const response = await this.request.get(`${this.url}/emulator/v1/projects/${this.projectId}/oobCodes`);
    return ((await response.json()).oobCodes ?? []) as OobCode[];
  }

  /** The newest link of a kind sent to an address, waiting a moment for it to be "sent". */
  async latestLink(
    email: string,
    requestType: "VERIFY_EMAIL" | "PASSWORD_RESET" | "EMAIL_SIGNIN" | "VERIFY_AND_CHANGE_EMAIL" | "RECOVER_EMAIL",
  ): Promise<URL> {
    let found: OobCode | undefined;
    await expect
      .poll(
        async () => {
          found = (await this.codes())
            .filter((code) => code.email.toLowerCase() === email.toLowerCase() && code.requestType === requestType)
            .at(-1);
          return found;
        },
        { message: `no ${requestType} email to ${email}` },
      )
      .toBeTruthy();
    return new URL(found!.oobLink);
  }

  /** The page of ours the link would open: the action URL gets the link's parameters. */
  async actionPath(email: string, requestType: Parameters<IdentityEmulator["latestLink"]>[1]): Promise<string> {
    const link = await this.latestLink(email, requestType);
    return `/handle-email-action?${link.searchParams.toString()}`;
  }

  async createUser(email: string, password = PASSWORD, displayName = "Test Driver"): Promise<string> {
    const response = await this.request.post(
      `${this.url}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=${this.apiKey}`,
      {
        data: { email, password, displayName, returnSecureToken: true },
      },
    );
    const body = await response.json();
    expect(body.localId, JSON.stringify(body)).toBeTruthy();
    return body.localId;
  }

  /** What an administrator does in the identity console. */
  async updateUser(localId: string, fields: Record<string, unknown>): Promise<void> {
    const response = await this.request.post(
      `${this.url}/identitytoolkit.googleapis.com/v1/projects/${this.projectId}/accounts:update`,
      {
        headers: { authorization: "Bearer owner" },
        data: { localId, ...fields },
      },
    );
    expect(response.ok(), await response.text()).toBe(true);
  }

  async lookup(email: string): Promise<
    | {
        localId: string;
        email: string;
        emailVerified?: boolean;
        disabled?: boolean;
        providerUserInfo?: Array<{ providerId: string }>;
      }
    | undefined
  > {
    const response = await this.request.post(
      `${this.url}/identitytoolkit.googleapis.com/v1/projects/${this.projectId}/accounts:lookup`,
      {
        headers: { authorization: "Bearer owner" },
        data: { email: [email] },
      },
    );
    return (await response.json()).users?.[0];
  }

  /** What the SDK's updateEmail does: change the address at once, with the user's own token. */
  async changeEmail(email: string, password: string, newEmailAddress: string): Promise<void> {
    const idToken = await this.idToken(email, password);
    const response = await this.request.post(
      `${this.url}/identitytoolkit.googleapis.com/v1/accounts:update?key=${this.apiKey}`,
      {
        data: { idToken, email: newEmailAddress, returnSecureToken: true },
      },
    );
    expect(response.ok(), await response.text()).toBe(true);
  }

  async idToken(email: string, password: string): Promise<string> {
    const response = await this.request.post(
      `${this.url}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=${this.apiKey}`,
      {
        data: { email, password, returnSecureToken: true },
      },
    );
    return (await response.json()).idToken;
  }
}

/** The sign-up page with its live password checklist. */
export class CreateAccountPage {
  constructor(private readonly page: Page) {}

  async open(to?: string) {
    await this.page.goto(to ? `/create-account?to=${encodeURIComponent(to)}` : "/create-account");
    await expect(this.page.getByRole("heading", { name: "Create your account" })).toBeVisible();
  }

  async fill(name: string, email: string, password: string) {
    await this.page.getByLabel("Name").fill(name);
    await this.page.getByLabel("Email").fill(email);
    await this.page.getByLabel("Password", { exact: true }).fill(password);
  }

  rule(label: string | RegExp) {
    return this.page
      .getByRole("list", { name: "Password requirements" })
      .getByRole("listitem")
      .filter({ hasText: label });
  }

  async submit() {
    await this.page.getByRole("button", { name: "Create account" }).click();
  }
}

/**
 * "Continue with Google" as a person uses it: the button opens the Auth emulator's own page of fake
 * Google accounts in a popup, where one adds an account (or picks one added before).
 */
export class GoogleSignIn {
  constructor(private readonly page: Page) {}

  private async open(): Promise<Page> {
    const popup = this.page.waitForEvent("popup");
    await this.page.getByRole("button", { name: "Continue with Google" }).click();
    const window = await popup;
    await window.waitForLoadState("domcontentloaded");
    return window;
  }

  /** Adds a new Google account with this address on the emulator's page and signs in with it. */
  async withNewAccount(email: string, displayName: string) {
    const window = await this.open();
    await window.getByText("Add new account").click();
    await window.locator("#email-input").fill(email);
    await window.locator("#display-name-input").fill(displayName);
    // The SDK closes the window as soon as it has the answer, possibly before the click returns.
    const closed = window.waitForEvent("close");
    await window.locator("#sign-in").click();
    await closed;
  }

  /** Picks the Google account with this address that was used before. */
  async withExistingAccount(email: string) {
    const window = await this.open();
    const closed = window.waitForEvent("close");
    await window.getByText(email).click();
    await closed;
  }
}

/** Tests that talk to the emulator get it as a fixture, bound to their own request context. */
export const test = base.extend<{ emulator: IdentityEmulator }>({
  emulator: async ({ request }, use) => {
    await use(await IdentityEmulator.of(request));
  },
});
