import { DEMO_PASSWORD, demoAccounts } from "../../server/seed";

/** The end of what `npm start` and `npm run cluster` print once running: the demo accounts, and how to stop. */
export function demoAccountsBanner(): string {
  const accounts = demoAccounts.map((account) => `    ${account.email.padEnd(24)} ${account.role}`).join("\n");
  return `  Demo accounts (password ${DEMO_PASSWORD}):\n${accounts}\n  Press Ctrl-C to stop.\n`;
}

/** Runs a command's main, printing only the message of what fails (no stack) and exiting 1. */
export function runMain(main: () => Promise<void>): void {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
