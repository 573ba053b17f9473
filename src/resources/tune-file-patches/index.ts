import { BuildOutlined } from "@ant-design/icons";
import { createElement } from "react";
import { lazyPage } from "../lazy-page";
import type { ResourceDefinition } from "../types";

export const tuneFilePatches: ResourceDefinition = {
  name: "tune-file-patches",
  guard: "admin",
  layout: "portal",
  list: { path: "/admin/tune-file-patches", component: lazyPage(() => import("./list"), "TuneFilePatchesList") },
  meta: { label: "Tune-file patches", icon: createElement(BuildOutlined), menu: "admin" },
};
