import { describe, expect, it } from "vitest";
import { parseVehicleArgs } from "../../../../scripts/vehicle/args";

const defaults = { url: "http://portal.test", emulator: "127.0.0.1:9099", password: "pw", dataDir: ".data" };
const parse = (...argv: string[]) => parseVehicleArgs(argv, defaults);
const VEHICLE = "7b0c8f8e-2f4a-4a8e-9d55-0c1f3a2b4c5d";
const BAKE = "1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d";

describe("the virtual vehicle's command line", () => {
  it("answers help for --help and -h, whatever the command", () => {
    expect(parse("--help")).toEqual({ kind: "help" });
    expect(parse("-h")).toEqual({ kind: "help" });
    expect(parse("flash", "--help")).toEqual({ kind: "help" });
  });

  it("flashes the link the page hands over, with its bake, recovery and resume", () => {
    const link = `tuningportal://flash?vehicle=${VEHICLE}&kind=tune&bake=${BAKE}&recovers=${VEHICLE}&resumeFromBlock=1`;
    expect(parse("flash", link)).toMatchObject({
      kind: "run",
      command: "flash",
      target: {
        kind: "handover",
        handover: { vehicleId: VEHICLE, kind: "tune", bakedTuneFileId: BAKE, recoversId: VEHICLE, resumeFromBlock: 1 },
      },
    });
  });

  it("flashes a bake named by its id, alone or with --bake, and bakes only when given a tune", () => {
    const bake = { kind: "run", target: { kind: "bake", bakedTuneFileId: BAKE } };
    expect(parse("flash", BAKE)).toMatchObject(bake);
    expect(parse("flash", "--bake", BAKE)).toMatchObject(bake);
    expect(parse("flash", "--tune", BAKE)).toMatchObject({ target: { kind: "tune", tuneFileId: BAKE } });
  });

  it("reads the options with their defaults", () => {
    expect(parse("connect")).toEqual({
      kind: "run",
      command: "connect",
      target: null,
      options: {
        url: "http://portal.test",
        emulator: "127.0.0.1:9099",
        email: "customer@example.com",
        password: "pw",
        resume: false,
        dataDir: ".data",
      },
    });
    expect(parse("flash", BAKE, "--fault", "power-loss@block", "--resume", "--email", "a@b.test")).toMatchObject({
      options: { fault: "power-loss@block", resume: true, email: "a@b.test" },
    });
  });

  it("names what is wrong: no command, an unknown one, an unknown flag, a flash without a file or with two", () => {
    expect(parse()).toEqual({ kind: "error", message: "no command given" });
    expect(parse("drive")).toEqual({
      kind: "error",
      message: "unknown command drive: one of connect, read-stock, flash, back-to-stock, log",
    });
    expect(parse("connect", "--colour", "red")).toMatchObject({
      kind: "error",
      message: expect.stringContaining("Unknown option '--colour'"),
    });
    expect(parse("flash")).toMatchObject({ kind: "error", message: expect.stringContaining("flash needs") });
    expect(parse("flash", BAKE, "--bake", BAKE)).toMatchObject({
      kind: "error",
      message: expect.stringContaining("one file"),
    });
    expect(parse("flash", "https://example.test/x")).toMatchObject({
      kind: "error",
      message: expect.stringContaining("neither the page's link"),
    });
    expect(parse("connect", BAKE)).toMatchObject({ kind: "error", message: "connect takes no file: only flash does" });
  });
});
