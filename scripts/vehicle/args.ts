/**
 * The virtual vehicle's command line: what a person types, read into a command and its options,
 * or into help, or into an error that names what is wrong. Flashing takes what the car's page
 * hands over, as the real app does: the link (`tuningportal://flash?…`) or the bake's id.
 */
import { parseArgs } from "node:util";
import { type Handover, parseFlashDeepLink } from "../../src/lib/flash-handover";

export const COMMANDS = ["connect", "read-stock", "flash", "back-to-stock", "log"] as const;
export type Command = (typeof COMMANDS)[number];

export const USAGE = `usage: npm run vehicle -- [options] <command>

Commands:
  connect                       the app meets the car: VIN and ECU identity, adapter, battery
  read-stock                    reads the ECU's flash (UDS 0x23) and uploads it as the car's stock read
  flash <link>                  flashes what the car's page handed over: its link (tuningportal://flash?…,
                                quoted) or the bake's id alone (--bake <id>); nothing is baked again
  flash --tune <id>             bakes the tune onto the stock read first (without the page), then flashes it
  back-to-stock                 writes the stock read back (recovering the last failed flash, if any)
  log                           drives a pull and uploads the data log; boost follows the flashed boost map

Options:
  --url <url>                   the portal (default $PORTAL_URL or http://127.0.0.1:8080)
  --emulator <host:port>        the Auth emulator (default $FIREBASE_AUTH_EMULATOR_HOST or 127.0.0.1:9099)
  --email <email>               who signs in (default customer@example.com)
  --password <password>         their password (default the demo password)
  --bake <id>                   with flash: the bake to flash
  --fault <kind>@<step>         arms a fault for flash/back-to-stock: pending-storm, dropped-response,
                                wrong-key, wrong-counter, corrupt-block, power-loss, low-voltage
  --resume                      with flash: resume the last failed flash from its failed block
  --data-dir <dir>              where the car is kept between commands (default $DATA_DIR or .data)
  -h, --help                    this text`;

export interface VehicleOptions {
  url: string;
  emulator: string;
  email: string;
  password: string;
  fault?: string;
  resume: boolean;
  dataDir: string;
}

/** What to flash: a hand-over from the page, a bake by id, or a tune to bake first. */
export type FlashTarget =
  | { kind: "handover"; handover: Handover }
  | { kind: "bake"; bakedTuneFileId: string }
  | { kind: "tune"; tuneFileId: string };

export type VehicleArgs =
  | { kind: "help" }
  | { kind: "error"; message: string }
  | { kind: "run"; command: Command; options: VehicleOptions; target: FlashTarget | null };

export interface ArgDefaults {
  url: string;
  emulator: string;
  password: string;
  dataDir: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function targetOf(
  command: Command,
  extra: string[],
  bake: string | undefined,
  tune: string | undefined,
): FlashTarget | string | null {
  if (command !== "flash") {
    if (extra.length || bake || tune) return `${command} takes no file: only flash does`;
    return null;
  }
  const given = [...extra, ...(bake ? [bake] : []), ...(tune ? [tune] : [])];
  if (given.length === 0) return "flash needs what the car's page handed over: its link, or --bake <id>";
  if (given.length > 1) return "flash takes one file: the page's link, --bake <id> or --tune <id>";
  if (tune) return UUID.test(tune) ? { kind: "tune", tuneFileId: tune } : `--tune: ${tune} is not a tune file's id`;
  const [what] = given;
  if (UUID.test(what)) return { kind: "bake", bakedTuneFileId: what };
  const handover = parseFlashDeepLink(what);
  if (handover) return { kind: "handover", handover };
  return `flash: ${what} is neither the page's link (tuningportal://flash?…) nor a bake's id`;
}

export function parseVehicleArgs(argv: string[], defaults: ArgDefaults): VehicleArgs {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv, defaults);
  } catch (error) {
    return { kind: "error", message: error instanceof Error ? error.message : String(error) };
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: "help" };
  const [command, ...extra] = positionals;
  if (!command) return { kind: "error", message: "no command given" };
  if (!(COMMANDS as readonly string[]).includes(command))
    return { kind: "error", message: `unknown command ${command}: one of ${COMMANDS.join(", ")}` };
  const target = targetOf(command as Command, extra, values.bake, values.tune);
  if (typeof target === "string") return { kind: "error", message: target };
  return {
    kind: "run",
    command: command as Command,
    target,
    options: {
      url: values.url,
      emulator: values.emulator,
      email: values.email,
      password: values.password,
      ...(values.fault !== undefined && { fault: values.fault }),
      resume: values.resume,
      dataDir: values["data-dir"],
    },
  };
}

const parse = (argv: string[], defaults: ArgDefaults) =>
  parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      url: { type: "string", default: defaults.url },
      emulator: { type: "string", default: defaults.emulator },
      email: { type: "string", default: "customer@example.com" },
      password: { type: "string", default: defaults.password },
      tune: { type: "string" },
      bake: { type: "string" },
      fault: { type: "string" },
      resume: { type: "boolean", default: false },
      "data-dir": { type: "string", default: defaults.dataDir },
      help: { type: "boolean", short: "h", default: false },
    },
  });
