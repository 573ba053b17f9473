/**
 * A deterministic demo firmware: OEM images cannot be shipped, so tests, the
 * demo seed and the benchmarks build one from a seed.
 *
 * Layout of an image of S bytes (S a power of two, at least 64 KiB):
 *   0x000        magic bytes, 0x100 the firmware id as text (identify rules)
 *   0x200..S/2   program: pseudo-random bytes; demo patches edit it
 *   S/2          calibration header, holding the inner checksum stores
 *   S/2+0x100    maps, written through the real map writer
 *   S-0x100      trailer holding the outer checksum stores
 * Checksums come in three layers so that fixing order matters: four leaf
 * schemes over blocks of maps store into the calibration header; the header
 * is covered by `word16-sum-inverse` and (chained with the boot block) by
 * `crc32-msb`; `byte-sum-inverse` covers the program and `crc32` the whole
 * calibration including the header, both storing into the trailer.
 */
import {
  type ChecksumScheme,
  checksumSchemeSchema,
  type IdentifyRule,
  type Patch,
  patchSchema,
  type TuneDefinition,
  type TuneItem,
} from "../../contracts/tune-definition";
import { bytesToHex, copyImage } from "../../domain/tune/bytes";
import { checkedTuneDefinitionSchema } from "../../domain/tune/checked-schemas";
import { type ElementType, writeElement } from "../../domain/tune/elements";
import { hexAddress, TuneError } from "../../domain/tune/errors";
import { readItem, writeItem } from "../../domain/tune/maps";
import { fixAll } from "../services/tune-engine";

export interface DemoOptions {
  /** Same seed, same bytes. Default 1. */
  seed?: number;
  /** Image size in bytes, a power of two from 64 KiB. Default 8 MiB. */
  size?: number;
  /** Number of definition items, cycling through every kind and element type. Default 42. */
  itemCount?: number;
  /** Entries spread over the four demo patches. Default 12. */
  patchEntries?: number;
  firmwareId?: string;
}

export interface DemoFirmware {
  firmwareId: string;
  imageSize: number;
  identify: IdentifyRule[];
  checksums: ChecksumScheme[];
  definition: TuneDefinition;
}

export interface DemoTune {
  title: string;
  description: string;
  image: Uint8Array;
  /** Items whose values the tune changes. */
  changedItems: string[];
}

export interface Demo {
  firmware: DemoFirmware;
  stock: Uint8Array;
  /** Absent in the stock image and in the tune. */
  patches: Patch[];
  tune: DemoTune;
}

export const DEMO_MAGIC = "7F44454D4F"; // "\x7FDEMO"

/** mulberry32: tiny, fast, and good enough to make bytes look like firmware. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function fillRandom(image: Uint8Array, random: () => number): void {
  const words = new Uint32Array(image.buffer, image.byteOffset, image.length >>> 2);
  for (let i = 0; i < words.length; i++) words[i] = random() * 4294967296;
}

// ---------------------------------------------------------------------------
// Items

type Values = (rows: number, cols: number, random: () => number) => number[];

/** A smooth surface from `lo` to `hi` with a little noise, rounded to `decimals`. */
function surface(lo: number, hi: number, decimals: number): Values {
  const scale = 10 ** decimals;
  return (rows, cols, random) => {
    const out: number[] = [];
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const t = (rows > 1 ? r / (rows - 1) : 0.5) * 0.6 + (cols > 1 ? c / (cols - 1) : 0.5) * 0.4;
        const v = lo + (hi - lo) * (0.05 + 0.9 * t) + (random() - 0.5) * (hi - lo) * 0.04;
        out.push(Math.round(v * scale) / scale);
      }
    }
    return out;
  };
}

interface AxisTemplate {
  type: ElementType;
  toPhysical: string;
  unit: string;
  /** Raw breakpoints: first and step. */
  first: number;
  step: number;
}

interface Template {
  id: string;
  title: string;
  category: string;
  kind: TuneItem["kind"];
  /** Element fields of the item's data, without address. */
  z: Record<string, unknown> & ElementType;
  rows?: number;
  cols?: number;
  columnMajor?: boolean;
  x?: AxisTemplate | string[];
  y?: AxisTemplate | string[];
  extra?: Record<string, unknown>;
  values: Values;
}

const BE_U16: ElementType = { bits: 16, signed: false, endian: "big", float: false };
const RPM_LABELS = ["1000", "2000", "3000", "4000", "5000", "6000", "7000", "8000"];
const GEARS = ["1", "2", "3", "4", "5", "6"];

const TEMPLATES: Template[] = [
  {
    id: "boost_target",
    title: "Target boost",
    category: "boost",
    kind: "table2d",
    z: { ...BE_U16, toPhysical: "X*0.01933677", toRaw: "X/0.01933677", unit: "psi", decimals: 2, min: 0, max: 40 },
    rows: 8,
    cols: 12,
    x: { type: { ...BE_U16, signed: true }, toPhysical: "X/100", unit: "%", first: 1000, step: 800 },
    y: RPM_LABELS,
    values: surface(4, 22, 2),
  },
  {
    id: "ignition_base",
    title: "Base ignition timing",
    category: "ignition",
    kind: "table2d",
    z: {
      bits: 8,
      signed: false,
      endian: "little",
      float: false,
      toPhysical: "(X-40)*0.75",
      toRaw: "X/0.75+40",
      unit: "°",
      decimals: 1,
    },
    rows: 16,
    cols: 16,
    columnMajor: true,
    x: {
      type: { bits: 16, signed: false, endian: "little", float: false },
      toPhysical: "X*0.1",
      unit: "mg/stk",
      first: 100,
      step: 90,
    },
    y: {
      type: { bits: 16, signed: false, endian: "little", float: false },
      toPhysical: "X",
      unit: "rpm",
      first: 800,
      step: 450,
    },
    values: surface(-5, 38, 2),
  },
  {
    id: "lambda_target",
    title: "Lambda target",
    category: "fuel",
    kind: "table2d",
    z: { bits: 32, signed: false, endian: "big", float: true, unit: "λ", decimals: 3, min: 0.6, max: 1.2 },
    rows: 8,
    cols: 10,
    x: ["10", "20", "30", "40", "50", "60", "70", "80", "90", "100"],
    y: RPM_LABELS,
    values: surface(0.78, 1, 3),
  },
  {
    id: "torque_limit",
    title: "Torque limit per gear",
    category: "torque",
    kind: "table2d",
    z: {
      bits: 16,
      signed: true,
      endian: "little",
      float: false,
      toPhysical: "X*0.1",
      toRaw: "X*10",
      unit: "Nm",
      decimals: 1,
      min: 0,
      max: 1000,
    },
    rows: 6,
    cols: 8,
    x: {
      type: { bits: 32, signed: false, endian: "big", float: false },
      toPhysical: "X",
      unit: "rpm",
      first: 1000,
      step: 1000,
    },
    y: GEARS,
    values: surface(250, 520, 1),
  },
  {
    id: "rev_limit",
    title: "Rev limiter per gear",
    category: "limiters",
    kind: "table1d",
    z: { ...BE_U16, toPhysical: "X", unit: "rpm", decimals: 0, min: 3000, max: 9000 },
    rows: 1,
    cols: 6,
    x: GEARS,
    values: surface(6500, 7000, 0),
  },
  {
    id: "injector_dead_time",
    title: "Injector dead time",
    category: "fuel",
    kind: "table1d",
    z: {
      bits: 32,
      signed: true,
      endian: "little",
      float: false,
      toPhysical: "X*0.001",
      toRaw: "X*1000",
      unit: "ms",
      decimals: 3,
    },
    rows: 8,
    cols: 1,
    x: { type: BE_U16, toPhysical: "X*0.01", unit: "V", first: 800, step: 100 },
    values: surface(0.4, 1.6, 3),
  },
  {
    id: "speed_limit",
    title: "Speed limiter",
    category: "limiters",
    kind: "constant",
    z: {
      bits: 8,
      signed: false,
      endian: "big",
      float: false,
      toPhysical: "X*2",
      toRaw: "X/2",
      unit: "km/h",
      min: 0,
      max: 510,
    },
    values: () => [250],
  },
  {
    id: "injector_flow",
    title: "Injector flow rate",
    category: "fuel",
    kind: "constant",
    z: { bits: 32, signed: false, endian: "little", float: true, unit: "cc/min", decimals: 1 },
    values: () => [550.5],
  },
  {
    id: "idle_target",
    title: "Idle speed target",
    category: "limiters",
    kind: "constant",
    z: { bits: 16, signed: true, endian: "big", float: false, toPhysical: "X", unit: "rpm", min: 500, max: 1500 },
    values: () => [780],
  },
  {
    id: "boost_cut",
    title: "Boost cut pressure",
    category: "boost",
    kind: "constant",
    z: {
      bits: 32,
      signed: false,
      endian: "big",
      float: false,
      toPhysical: "X*0.001",
      toRaw: "X*1000",
      unit: "bar",
      decimals: 3,
    },
    values: () => [2.35],
  },
  {
    id: "launch_control",
    title: "Launch control",
    category: "switches",
    kind: "flag",
    z: { bits: 8, signed: false, endian: "big", float: false },
    extra: { mask: 4 },
    values: () => [0],
  },
  {
    id: "cat_monitoring",
    title: "Catalyst monitoring",
    category: "switches",
    kind: "flag",
    z: { ...BE_U16 },
    extra: { mask: "0x0100" },
    values: () => [1],
  },
  {
    id: "fuel_grade",
    title: "Fuel grade",
    category: "fuel",
    kind: "enum",
    z: { bits: 8, signed: false, endian: "big", float: false },
    extra: {
      values: [
        { raw: 0, label: "RON 91" },
        { raw: 1, label: "RON 95" },
        { raw: 2, label: "RON 98" },
        { raw: 3, label: "E85" },
      ],
    },
    values: () => [1],
  },
  {
    id: "gearbox",
    title: "Gearbox type",
    category: "switches",
    kind: "enum",
    z: { bits: 16, signed: false, endian: "little", float: false },
    extra: {
      values: [
        { raw: 0, label: "Manual" },
        { raw: 1, label: "Dual clutch" },
        { raw: 2, label: "Automatic" },
      ],
    },
    values: () => [0],
  },
];

const CATEGORIES = [
  { id: "boost", name: "Boost" },
  { id: "fuel", name: "Fuel" },
  { id: "ignition", name: "Ignition" },
  { id: "torque", name: "Torque" },
  { id: "limiters", name: "Limiters" },
  { id: "switches", name: "Switches" },
];

/** Hands out aligned addresses in the map area, refusing to overrun it. */
class Allocator {
  constructor(
    private next: number,
    private readonly end: number,
  ) {}

  take(bytes: number, align: number): number {
    const address = Math.ceil(this.next / align) * align;
    if (address + bytes > this.end) {
      throw new TuneError(
        "invalid_value",
        `the demo image is too small for this many items (map area ends at 0x${this.end.toString(16)})`,
      );
    }
    this.next = address + bytes;
    return address;
  }
}

interface PlannedAxis {
  input: Record<string, unknown>;
  raw?: { address: number; type: ElementType; first: number; step: number; count: number };
}

function planAxis(template: AxisTemplate | string[], count: number, alloc: Allocator): PlannedAxis {
  if (Array.isArray(template)) return { input: { labels: template } };
  const size = template.type.bits / 8;
  const address = alloc.take(size * count, size);
  return {
    input: {
      ...template.type,
      address: hexAddress(address),
      count,
      toPhysical: template.toPhysical,
      unit: template.unit,
    },
    raw: { address, type: template.type, first: template.first, step: template.step, count },
  };
}

/** Item documents as written by hand (validated by the schema afterwards), the raw axes to write, and each item's values. */
function buildItems(
  count: number,
  alloc: Allocator,
): { items: unknown[]; axes: NonNullable<PlannedAxis["raw"]>[]; values: Values[] } {
  const items: unknown[] = [];
  const axes: NonNullable<PlannedAxis["raw"]>[] = [];
  const values: Values[] = [];
  for (let i = 0; i < count; i++) {
    const t = TEMPLATES[i % TEMPLATES.length];
    const copy = Math.floor(i / TEMPLATES.length);
    const rows = t.rows ?? 1;
    const cols = t.cols ?? 1;
    const size = t.z.bits / 8;
    const zAddress = alloc.take(size * rows * cols, Math.max(size, 2));
    const item: Record<string, unknown> = {
      id: copy === 0 ? t.id : `${t.id}_${copy + 1}`,
      title: copy === 0 ? t.title : `${t.title} #${copy + 1}`,
      kind: t.kind,
      category: t.category,
      z: {
        ...t.z,
        address: hexAddress(zAddress),
        ...(t.kind === "table1d" || t.kind === "table2d" ? { rows, cols, columnMajor: t.columnMajor ?? false } : {}),
      },
      ...t.extra,
    };
    if (t.x) {
      const axis = planAxis(t.x, t.kind === "table1d" ? rows * cols : cols, alloc);
      item.x = axis.input;
      if (axis.raw) axes.push(axis.raw);
    }
    if (t.y) {
      const axis = planAxis(t.y, rows, alloc);
      item.y = axis.input;
      if (axis.raw) axes.push(axis.raw);
    }
    items.push(item);
    values.push(t.values);
  }
  return { items, axes, values };
}

// ---------------------------------------------------------------------------
// Checksums and patches

function demoChecksums(size: number): ChecksumScheme[] {
  const cal = size / 2;
  const trailer = size - 0x100;
  const mapStart = cal + 0x100;
  const block = Math.min(Math.floor((trailer - mapStart) / 16) * 4, 0x40000);
  const leaf = (k: number): [number, number] => [mapStart + k * block, mapStart + (k + 1) * block - 1];
  const schemes = [
    { name: "Map block A (byte XOR)", type: "byte-xor", ranges: [leaf(0)], store: { address: cal } },
    { name: "Map block B (16-bit byte sum)", type: "byte-sum16", ranges: [leaf(1)], store: { address: cal + 0x02 } },
    {
      name: "Map block C (Nissan sum and XOR)",
      type: "nissan-sum-xor",
      ranges: [leaf(2)],
      store: { address: cal + 0x08 },
    },
    { name: "Map block D (Subaru sum)", type: "subaru-sum32", ranges: [leaf(3)], store: { address: cal + 0x10 } },
    {
      name: "Calibration header (ME7 multipoint)",
      type: "word16-sum-inverse",
      ranges: [[cal, cal + 0xff]],
      store: { address: trailer },
    },
    {
      name: "Boot and header (Simos CRC)",
      type: "crc32-msb",
      ranges: [
        [0, size / 32 - 1],
        [cal, cal + 0xff],
      ],
      store: { address: trailer + 0x08 },
    },
    {
      name: "Program (Bosch main)",
      type: "byte-sum-inverse",
      ranges: [[0, cal - 1]],
      store: { address: trailer + 0x10 },
    },
    { name: "Calibration (CRC-32)", type: "crc32", ranges: [[cal, size - 5]], store: { address: size - 4 } },
  ];
  return schemes.map((s) => checksumSchemeSchema.parse(s));
}

const PATCH_TITLES: Array<[string, string, string]> = [
  ["pops-and-bangs", "Pops and bangs", "Overrun fuelling and retarded timing on lift-off."],
  ["dtc-p0420-off", "Catalyst DTC P0420 off", "Disables the catalyst efficiency monitor."],
  ["launch-control", "Launch control", "Enables two-step rev limiting at standstill."],
  ["speed-limiter-off", "Speed limiter off", "Removes the code path of the vehicle speed limiter."],
];

function demoPatches(stock: Uint8Array, firmwareId: string, entries: number, random: () => number): Patch[] {
  const start = 0x1000;
  const end = stock.length / 2 - 0x100;
  const stride = Math.floor((end - start) / entries);
  if (stride < 16) throw new TuneError("invalid_value", `the demo image is too small for ${entries} patch entries`);
  const perPatch = PATCH_TITLES.map(() => [] as Array<{ address: string; patch: string; base: string }>);
  for (let e = 0; e < entries; e++) {
    const length = 2 + Math.floor(random() * 7);
    const address = start + e * stride + Math.floor(random() * (stride - length));
    const base = stock.subarray(address, address + length);
    // Every byte differs from the base, so a patch is never accidentally "applied" in stock.
    const patch = base.map((b) => b ^ (1 + Math.floor(random() * 255)));
    perPatch[e % PATCH_TITLES.length].push({
      address: hexAddress(address),
      patch: bytesToHex(patch),
      base: bytesToHex(base),
    });
  }
  return PATCH_TITLES.flatMap(([id, title, description], p) =>
    perPatch[p].length === 0
      ? []
      : [patchSchema.parse({ id, title, description, firmwareIds: [firmwareId], entries: perPatch[p] })],
  );
}

// ---------------------------------------------------------------------------
// Tune

function makeTune(stock: Uint8Array, firmware: DemoFirmware): DemoTune {
  const image = copyImage(stock);
  const byId = new Map(firmware.definition.items.map((item) => [item.id, item]));
  const changed: string[] = [];
  const edit = (id: string, change: (value: number, index: number, cols: number) => number) => {
    const item = byId.get(id);
    if (!item) return;
    const current = readItem(image, item);
    writeItem(
      image,
      item,
      current.values.map((v, i) => change(v, i, current.cols)),
    );
    changed.push(id);
  };
  const round = (v: number, decimals: number) => Math.round(v * 10 ** decimals) / 10 ** decimals;
  edit("boost_target", (v) => Math.min(40, round(v * 1.15, 2)));
  edit("ignition_base", (v, i, cols) => (Math.floor(i / cols) >= 8 ? round(v + 1.5, 2) : v));
  edit("rev_limit", (v) => v + 300);
  edit("launch_control", () => 1);
  edit("speed_limit", () => 300);
  fixAll(image, firmware.checksums);
  return {
    title: "Demo stage 1",
    description:
      "More boost, +1.5° of timing at high load, rev limit +300 rpm, launch control on, speed limiter at 300 km/h.",
    image,
    changedItems: changed,
  };
}

// ---------------------------------------------------------------------------

export function generateDemo(options: DemoOptions = {}): Demo {
  const size = options.size ?? 8 * 1024 * 1024;
  if (!Number.isInteger(Math.log2(size)) || size < 0x10000) {
    throw new TuneError("invalid_value", `demo image size must be a power of two of at least 64 KiB, got ${size}`);
  }
  const firmwareId = options.firmwareId ?? "DEMO-ECU-0001";
  const random = prng(options.seed ?? 1);

  const stock = new Uint8Array(size);
  fillRandom(stock, random);
  const identify: IdentifyRule[] = [
    { address: 0, bytes: DEMO_MAGIC },
    { address: 0x100, text: firmwareId },
  ];
  stock.set([0x7f, 0x44, 0x45, 0x4d, 0x4f], 0);
  for (let i = 0; i < firmwareId.length; i++) stock[0x100 + i] = firmwareId.charCodeAt(i) & 0xff;

  const alloc = new Allocator(size / 2 + 0x100, size - 0x100);
  const built = buildItems(options.itemCount ?? 42, alloc);
  const definition = checkedTuneDefinitionSchema.parse({
    firmwareId,
    imageSize: size,
    categories: CATEGORIES,
    items: built.items,
  });
  for (const axis of built.axes) {
    for (let k = 0; k < axis.count; k++)
      writeElement(stock, axis.address + k * (axis.type.bits / 8), axis.type, axis.first + k * axis.step);
  }
  definition.items.forEach((item, i) => {
    const rows = item.kind === "table1d" || item.kind === "table2d" ? item.z.rows : 1;
    const cols = item.kind === "table1d" || item.kind === "table2d" ? item.z.cols : 1;
    writeItem(stock, item, built.values[i](rows, cols, random));
  });

  const checksums = demoChecksums(size);
  fixAll(stock, checksums);
  const firmware: DemoFirmware = { firmwareId, imageSize: size, identify, checksums, definition };
  const patches = demoPatches(stock, firmwareId, options.patchEntries ?? 12, random);
  return { firmware, stock, patches, tune: makeTune(stock, firmware) };
}
