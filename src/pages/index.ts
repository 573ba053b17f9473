import { menuIcon } from "../components/menu-icon";
import { isUuid } from "../lib/route-params";
import { lazyPage } from "../routing/lazy-page";
import type { LayoutName, PageComponent, ResourceDefinition } from "../routing/types";

function publicPage(
  name: string,
  path: string,
  label: string,
  component: PageComponent,
  layout: LayoutName = "landing",
): ResourceDefinition {
  return { name, guard: "public", layout, list: { path, component }, meta: { label, publicSite: true } };
}

/** Pages that are not resources: the public site, account flows, docs, and the portal's own pages. */
export const pages: ResourceDefinition[] = [
  publicPage(
    "home",
    "/",
    "Home",
    lazyPage(() => import("./landing/home"), "HomePage"),
  ),
  publicPage(
    "faqs",
    "/faqs",
    "FAQs",
    lazyPage(() => import("./landing/faqs"), "FaqsPage"),
  ),
  publicPage(
    "login",
    "/login",
    "Sign in",
    lazyPage(() => import("./auth/login"), "LoginPage"),
  ),
  publicPage(
    "about-us",
    "/about-us",
    "About us",
    lazyPage(() => import("./landing/about-us"), "AboutUsPage"),
  ),
  publicPage(
    "contact-us",
    "/contact-us",
    "Contact us",
    lazyPage(() => import("./landing/contact-us"), "ContactUsPage"),
  ),
  publicPage(
    "legal-terms",
    "/legal/terms",
    "Terms",
    lazyPage(() => import("./landing/legal"), "TermsPage"),
  ),
  publicPage(
    "legal-privacy",
    "/legal/privacy",
    "Privacy",
    lazyPage(() => import("./landing/legal"), "PrivacyPage"),
  ),
  publicPage(
    "demo-request",
    "/demo-request",
    "Request a demo",
    lazyPage(() => import("./landing/demo-request"), "DemoRequestPage"),
  ),
  publicPage(
    "download-app",
    "/download-app",
    "Get the app",
    lazyPage(() => import("./landing/download-app"), "DownloadAppPage"),
  ),
  publicPage(
    "dealer-account-request",
    "/dealer-account-request",
    "Become a dealer",
    lazyPage(() => import("./landing/dealer-account-request"), "DealerAccountRequestPage"),
  ),
  publicPage(
    "redirect-app",
    "/redirect-app",
    "Open the app",
    lazyPage(() => import("./auth/redirect-app"), "RedirectAppPage"),
    "none",
  ),
  publicPage(
    "create-account",
    "/create-account",
    "Create account",
    lazyPage(() => import("./auth/create-account"), "CreateAccountPage"),
    "none",
  ),
  publicPage(
    "confirm-account",
    "/confirm-account",
    "Confirm account",
    lazyPage(() => import("./auth/confirm-account"), "ConfirmAccountPage"),
    "none",
  ),
  publicPage(
    "forgot-password",
    "/forgot-password",
    "Forgot password",
    lazyPage(() => import("./auth/forgot-password"), "ForgotPasswordPage"),
    "none",
  ),
  publicPage(
    "mail-to-redirect",
    "/mail-to-redirect",
    "Check your mail",
    lazyPage(() => import("./auth/mail-to-redirect"), "MailToRedirectPage"),
    "none",
  ),
  publicPage(
    "handle-email-action",
    "/handle-email-action",
    "Email action",
    lazyPage(() => import("./auth/handle-email-action"), "HandleEmailActionPage"),
    "none",
  ),
  publicPage(
    "create-email-account",
    "/create-email-account",
    "Finish signing in",
    lazyPage(() => import("./auth/create-email-account"), "CreateEmailAccountPage"),
    "none",
  ),
  publicPage(
    "docs",
    "/docs/:slug",
    "Docs",
    lazyPage(() => import("./docs"), "DocsPage"),
    "docs",
  ),
  {
    name: "dashboard",
    guard: "auth",
    layout: "portal",
    list: { path: "/dashboard", component: lazyPage(() => import("./dashboard"), "DashboardPage") },
    meta: { label: "Dashboard", icon: menuIcon("DashboardOutlined"), menu: "portal" },
  },
  {
    name: "profile",
    guard: "auth",
    layout: "portal",
    list: { path: "/profile", component: lazyPage(() => import("./profile"), "ProfilePage") },
    meta: { label: "Profile", keepAlive: false },
  },
  {
    name: "checkout",
    guard: "auth",
    layout: "portal",
    list: {
      path: "/checkout/:orderId",
      component: lazyPage(() => import("./checkout"), "CheckoutPage"),
      validate: ({ orderId }) => isUuid(orderId),
    },
    meta: { label: "Checkout", keepAlive: false },
  },
  {
    name: "payouts-onboarding",
    guard: "dealer",
    layout: "portal",
    list: {
      path: "/payouts/onboarding",
      component: lazyPage(() => import("./payouts/onboarding"), "PayoutOnboardingPage"),
    },
    meta: { label: "Payout account", keepAlive: false },
  },
  {
    name: "tune-viewer",
    guard: "auth",
    layout: "portal",
    list: { path: "/tuning-tools/tune-viewer", component: lazyPage(() => import("./tune-viewer"), "TuneViewerPage") },
    meta: { label: "Tune viewer", icon: menuIcon("TableOutlined"), menu: "portal" },
  },
];
