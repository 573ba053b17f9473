/** The first lines of an error, without the colours the reporters add, indented under its test's name. */
export function errorHead(message: string | undefined): string {
  const lines = (message ?? "")
    .replace(/\u001b\[[0-9;]*m/g, "")
    .split("\n")
    .map((line) => line.trimEnd())
    .filter(Boolean);
  // The message and where it was thrown; the rest of the stack is in the runner's own output above.
  const firstFrame = lines.findIndex((line) => line.trimStart().startsWith("at "));
  const kept = firstFrame < 0 ? lines : lines.slice(0, firstFrame + 1);
  return kept
    .slice(0, 8)
    .map((line) => `      ${line.trim()}`)
    .join("\n");
}
