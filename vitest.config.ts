import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Vitest leaves a core free by default (one worker on a 2-core machine); the API files spend
    // much of their time waiting on PostgreSQL and the emulator, so two files run at once.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.{ts,tsx}"],
          environment: "node",
          // Through Vite like our modules, so it sees the same react-router and Refine (their router
          // and resource contexts) as the code it is compared with; Node would load other copies.
          server: { deps: { inline: ["@refinedev/react-router"] } },
        },
        esbuild: { jsx: "automatic" },
        resolve: {
          // Node loads "antd" as its CommonJS build (lib/); a module of ours that imports one of antd's
          // parts by path (antd/es/…, as the browser bundle does) must get that same copy here, or its
          // parts would not see the theme the app's ConfigProvider sets.
          alias: [{ find: /^antd\/es\/(.*)$/, replacement: "antd/lib/$1" }],
        },
      },
      {
        test: {
          name: "api",
          include: ["tests/api/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/api/support/global-setup.ts"],
          // Files run side by side: each test app has a database of its own (tests/api/support/test-databases.ts),
          // and the emulator and inbox they share are read by each test's own new addresses.
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // One module graph per worker, not one per file: every file imports the whole server, and
          // importing it afresh (cold, for each of some sixty files) was over a third of the API
          // project's CPU time. Each test builds its own app over its own database, so no state of
          // one file's apps reaches another's; nothing here mocks modules.
          isolate: false,
        },
      },
    ],
  },
});
