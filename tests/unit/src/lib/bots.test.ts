import { describe, expect, it } from "vitest";

import { BOT_USER_AGENT_TOKENS, isBot } from "../../../../src/lib/bots";

const BOTS = {
  Googlebot: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  bingbot: "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
  DuckDuckBot: "DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)",
  Baiduspider: "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)",
  YandexBot: "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)",
  facebookexternalhit: "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
  Twitterbot: "Twitterbot/1.0",
  Slurp: "Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)",
  Applebot:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1)",
  LinkedInBot: "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)",
};

const PEOPLE = {
  "Chrome on Windows":
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  "Safari on iPhone":
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  "Firefox on Linux": "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
  "HeadlessChrome (our browser tests)":
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36",
};

describe("isBot", () => {
  it.each(Object.entries(BOTS))("recognises %s", (token, userAgent) => {
    expect(BOT_USER_AGENT_TOKENS).toContain(token);
    expect(isBot(userAgent)).toBe(true);
  });

  it.each(Object.entries(PEOPLE))("treats %s as a person", (_, userAgent) => {
    expect(isBot(userAgent)).toBe(false);
  });

  it("does not list HeadlessChrome", () => {
    expect(BOT_USER_AGENT_TOKENS.some((token) => /headless/i.test(token))).toBe(false);
  });

  it("matches regardless of case", () => {
    expect(isBot("mozilla/5.0 (compatible; GOOGLEBOT/2.1)")).toBe(true);
  });

  it("treats a missing or empty user agent as a person", () => {
    expect(isBot("")).toBe(false);
    expect(isBot(undefined)).toBe(false);
    expect(isBot(null)).toBe(false);
  });
});
