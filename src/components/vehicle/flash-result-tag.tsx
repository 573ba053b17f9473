import { Tag } from "antd";
import type { FlashResult } from "../../../contracts/flash-logs";

export const FLASH_RESULT_COLOURS: Record<FlashResult, string> = {
  running: "blue",
  success: "green",
  failed: "red",
  recovered: "purple",
  abandoned: "volcano",
  aborted: "orange",
};

export function FlashResultTag({ result }: { result: FlashResult }) {
  return <Tag color={FLASH_RESULT_COLOURS[result]}>{result}</Tag>;
}
