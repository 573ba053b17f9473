import { describe, expect, it } from "vitest";
import { inNextTask } from "../../../../src/lib/idle";

const aTaskLater = () => new Promise<void>((resolve) => setTimeout(resolve, 5));

describe("work put in a task of its own", () => {
  it("runs after the calling task and its microtasks, not inside them", async () => {
    const ran: string[] = [];
    inNextTask(() => ran.push("task"));
    await Promise.resolve();
    ran.push("microtasks done");
    await aTaskLater();
    expect(ran).toEqual(["microtasks done", "task"]);
  });

  it("does not run once cancelled", async () => {
    let ran = false;
    const cancel = inNextTask(() => (ran = true));
    cancel();
    await aTaskLater();
    expect(ran).toBe(false);
  });
});
