/**
 * The house rules (README, "The house"), checked by `npm test` and so by CI:
 * a wrong arrow fails the run with the rule's name. Run alone with
 *   tools/depcheck/node_modules/.bin/depcruise .
 * (dependency-cruiser lives apart in tools/depcheck because it needs the TypeScript
 * compiler's JS API, which the project's own tsc does not have).
 */
module.exports = {
  forbidden: [
    {
      // The domain runs in the server and in the browser alike: no Node, DOM, HTTP or SQL. It may use
      // zod, since the contracts it imports are zod schemas and a domain type may be inferred from one.
      name: "domain-imports-only-contracts",
      severity: "error",
      from: { path: "^domain/" },
      to: { pathNot: ["^domain/", "^contracts/", "^node_modules/zod/"] },
    },
    {
      name: "contracts-import-nothing-of-ours",
      severity: "error",
      from: { path: "^contracts/" },
      to: { pathNot: ["^contracts/", "^node_modules/"] },
    },
    {
      name: "contracts-not-reaching-the-expression-compiler",
      comment:
        "Contracts hold shapes; compiling an expression is domain logic. The schemas that check expressions are the domain's (domain/tune/checked-schemas.ts, domain/catalogue/checked-schemas.ts), built over the contracts' shapes.",
      severity: "error",
      from: { path: "^contracts/" },
      to: { path: "^domain/expression/", reachable: true },
    },
    { name: "app-not-importing-server", severity: "error", from: { path: "^src/" }, to: { path: "^server/" } },
    {
      name: "seed-key-stays-off-the-browser",
      comment:
        "Seed/key algorithms are computed on the server (and by the virtual vehicle's ECU); the app never carries them.",
      severity: "error",
      from: { path: "^src/" },
      to: { path: "^domain/flashing/seed-key" },
    },
    { name: "server-not-importing-app", severity: "error", from: { path: "^server/" }, to: { path: "^src/" } },
    {
      name: "lib-no-ui-or-sdk",
      severity: "error",
      from: { path: "^src/lib/" },
      to: {
        path: "^node_modules/(react|react-dom|react-is|react-router|react-hook-form|@hookform|antd|@ant-design|@refinedev|firebase|@firebase|firebase-admin|@stripe|stripe|@monaco-editor|monaco-editor|@tanstack|recharts|uplot)/",
      },
    },
    {
      name: "services-not-importing-http",
      comment:
        "Services throw the refusals of services/errors.ts and know nothing of HTTP (no http/, routes or HttpError); the error handler maps them once.",
      severity: "error",
      from: { path: "^server/services/" },
      to: { path: "^server/((http|routes)/|errors\\.ts$)" },
    },
    {
      name: "routing-not-importing-ui",
      comment:
        "The routing kernel turns resource definitions into routes; pages, components and the shell that composes them sit on top of it.",
      severity: "error",
      from: { path: "^src/routing/" },
      to: { path: "^src/(pages|components|resources|shell)/" },
    },
    {
      name: "providers-not-importing-ui",
      comment:
        "Providers (http, data, auth, access, events) are below the UI: no resources, pages, components or shell.",
      severity: "error",
      from: { path: "^src/providers/" },
      to: { path: "^src/(resources|pages|components|shell)/" },
    },
    // Type-only imports count: a type circle still ties the modules' meaning together.
    { name: "no-circular", severity: "error", from: {}, to: { circular: true } },
    { name: "imports-resolve", severity: "error", from: {}, to: { couldNotResolve: true } },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: "(^|/)node_modules/" },
    exclude: { path: ["^(tools|dist|public|docs|bench/out|\\.[^/]+)/", "^\\.dependency-cruiser\\.cjs$"] },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      extensions: [".ts", ".tsx", ".d.ts", ".js", ".mjs", ".cjs", ".json"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["module", "main", "types", "typings"],
    },
    skipAnalysisNotInRules: true,
  },
};
