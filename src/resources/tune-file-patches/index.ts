import { BuildOutlined } from "@ant-design/icons";
import { createElement } from "react";
import type { ResourceDefinition } from "../types";
import { TuneFilePatchesList } from "./list";

export const tuneFilePatches: ResourceDefinition = {
  name: "tune-file-patches",
  guard: "admin",
  layout: "portal",
  list: { path: "/admin/tune-file-patches", component: TuneFilePatchesList },
  meta: { label: "Tune-file patches", icon: createElement(BuildOutlined), menu: "admin" },
};
