/**
 * PGlite is one process's database: a second process opening the same folder (a second portal,
 * a backup while the portal runs) would write over the first's pages. Whoever opens the folder
 * holds `<folder>.pid` with its process id; a file whose process is gone was left by a crash and
 * is taken over.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";

/** The process whose id the lock names, if it still runs and is not this one. */
function holder(file: string): number | null {
  const pid = Number(readFileSync(file, "utf8").trim());
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM" ? pid : null;
  }
}

/** Takes the folder for this process, or refuses naming the process that has it; answers the release. */
export function lockPgliteFolder(dir: string): () => void {
  const file = `${dir}.pid`;
  try {
    writeFileSync(file, `${process.pid}\n`, { flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const pid = holder(file);
    if (pid !== null)
      throw new Error(
        `The PGlite database in ${dir} is in use by process ${pid}: stop that process first (or remove ${file} if it is not a portal)`,
      );
    writeFileSync(file, `${process.pid}\n`);
  }
  return () => rmSync(file, { force: true });
}
