/**
 * Bot user agents: for them no error page is rendered, so a crawler never indexes an error
 * screen as page content.
 *
 * Matching is a case-insensitive substring test against the tokens below. HeadlessChrome is
 * deliberately absent: our own browser tests run in it and must see the error page. An empty or
 * missing user agent is treated as a person, who is better served by the error page.
 */

export const BOT_USER_AGENT_TOKENS: readonly string[] = [
  // Search engines
  "Googlebot",
  "Google-InspectionTool",
  "AdsBot-Google",
  "Storebot-Google",
  "bingbot",
  "DuckDuckBot",
  "Baiduspider",
  "YandexBot",
  "Slurp", // Yahoo
  "Applebot",
  "PetalBot",
  "Sogou",
  // Link previews
  "facebookexternalhit",
  "Twitterbot",
  "LinkedInBot",
  "Slackbot",
  "Discordbot",
  "TelegramBot",
  "WhatsApp",
  "Pinterestbot",
  // SEO and archive crawlers
  "AhrefsBot",
  "SemrushBot",
  "ia_archiver",
  // AI crawlers
  "GPTBot",
  "ClaudeBot",
  "CCBot",
];

const BOT_PATTERN = new RegExp(
  BOT_USER_AGENT_TOKENS.map((token) => token.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"),
  "i",
);

export function isBot(userAgent: string | null | undefined): boolean {
  return typeof userAgent === "string" && BOT_PATTERN.test(userAgent);
}
