import { DashboardOutlined, TableOutlined } from "@ant-design/icons";
import { createElement } from "react";
import type { ResourceDefinition } from "../resources/types";
import { ConfirmAccountPage } from "./auth/confirm-account";
import { CreateAccountPage } from "./auth/create-account";
import { CreateEmailAccountPage } from "./auth/create-email-account";
import { ForgotPasswordPage } from "./auth/forgot-password";
import { HandleEmailActionPage } from "./auth/handle-email-action";
import { LoginPage } from "./auth/login";
import { MailToRedirectPage } from "./auth/mail-to-redirect";
import { RedirectAppPage } from "./auth/redirect-app";
import { DashboardPage } from "./dashboard";
import { DocsPage } from "./docs";
import { AboutUsPage } from "./landing/about-us";
import { ContactUsPage } from "./landing/contact-us";
import { DealerAccountRequestPage } from "./landing/dealer-account-request";
import { DemoRequestPage } from "./landing/demo-request";
import { DownloadAppPage } from "./landing/download-app";
import { FaqsPage } from "./landing/faqs";
import { HomePage } from "./landing/home";
import { PrivacyPage, TermsPage } from "./landing/legal";
import { ProfilePage } from "./profile";
import { TuneViewerPage } from "./tune-viewer";
import type { ComponentType } from "react";
import type { LayoutName } from "../resources/types";

function publicPage(name: string, path: string, label: string, component: ComponentType, layout: LayoutName = "landing"): ResourceDefinition {
  return { name, guard: "public", layout, list: { path, component }, meta: { label } };
}

/** Pages that are not resources: the public site, account flows, docs, and the portal's own pages. */
export const pages: ResourceDefinition[] = [
  publicPage("home", "/", "Home", HomePage),
  publicPage("faqs", "/faqs", "FAQs", FaqsPage),
  publicPage("login", "/login", "Sign in", LoginPage),
  publicPage("about-us", "/about-us", "About us", AboutUsPage),
  publicPage("contact-us", "/contact-us", "Contact us", ContactUsPage),
  publicPage("legal-terms", "/legal/terms", "Terms", TermsPage),
  publicPage("legal-privacy", "/legal/privacy", "Privacy", PrivacyPage),
  publicPage("demo-request", "/demo-request", "Request a demo", DemoRequestPage),
  publicPage("download-app", "/download-app", "Get the app", DownloadAppPage),
  publicPage("dealer-account-request", "/dealer-account-request", "Become a dealer", DealerAccountRequestPage),
  publicPage("redirect-app", "/redirect-app", "Open the app", RedirectAppPage, "none"),
  publicPage("create-account", "/create-account", "Create account", CreateAccountPage, "none"),
  publicPage("confirm-account", "/confirm-account", "Confirm account", ConfirmAccountPage, "none"),
  publicPage("forgot-password", "/forgot-password", "Forgot password", ForgotPasswordPage, "none"),
  publicPage("mail-to-redirect", "/mail-to-redirect", "Check your mail", MailToRedirectPage, "none"),
  publicPage("handle-email-action", "/handle-email-action", "Email action", HandleEmailActionPage, "none"),
  publicPage("create-email-account", "/create-email-account", "Finish signing in", CreateEmailAccountPage, "none"),
  publicPage("docs", "/docs/:slug", "Docs", DocsPage, "docs"),
  {
    name: "dashboard",
    guard: "auth",
    layout: "portal",
    list: { path: "/dashboard", component: DashboardPage },
    meta: { label: "Dashboard", icon: createElement(DashboardOutlined), menu: "portal" },
  },
  {
    name: "profile",
    guard: "auth",
    layout: "portal",
    list: { path: "/profile", component: ProfilePage },
    meta: { label: "Profile", keepAlive: false },
  },
  {
    name: "tune-viewer",
    guard: "auth",
    layout: "portal",
    list: { path: "/tuning-tools/tune-viewer", component: TuneViewerPage },
    meta: { label: "Tune viewer", icon: createElement(TableOutlined), menu: "portal" },
  },
];
