import type { JobSnapshot, JobState } from "../../contracts/server-management";

export type { JobSnapshot, JobState };

export interface JobContext {
  setTotal(total: number): void;
  /** One unit done; a failure is recorded and the job goes on with the rest. */
  step(failure?: { item: string; message: string }): void;
}

/** Background work with progress, listed by /status/background. Kept in memory: jobs do not survive a restart. */
export class JobRegistry {
  private readonly jobs = new Map<string, JobSnapshot>();
  private readonly running = new Set<Promise<void>>();
  private sequence = 0;

  start(kind: string, work: (context: JobContext) => Promise<void | Record<string, number>>): JobSnapshot {
    const job: JobSnapshot = {
      id: `${kind}-${++this.sequence}`,
      kind,
      state: "running",
      total: 0,
      done: 0,
      failures: [],
      startedAt: new Date().toISOString(),
      finishedAt: null,
    };
    this.jobs.set(job.id, job);
    const context: JobContext = {
      setTotal: (total) => void (job.total = total),
      step: (failure) => {
        job.done += 1;
        if (failure) job.failures.push(failure);
      },
    };
    const run = work(context)
      .then((result) => {
        if (result) job.result = result;
        job.state = job.failures.length > 0 ? "failed" : "succeeded";
      })
      .catch((error: unknown) => {
        job.state = "failed";
        job.failures.push({ item: "job", message: error instanceof Error ? error.message : String(error) });
      })
      .finally(() => {
        job.finishedAt = new Date().toISOString();
        this.running.delete(run);
      });
    this.running.add(run);
    return { ...job };
  }

  list(): JobSnapshot[] {
    return [...this.jobs.values()].map((job) => ({ ...job, failures: [...job.failures] }));
  }

  /** Lets shutdown wait for work in flight. */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }
}
