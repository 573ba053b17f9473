import { Spin } from "antd";

/**
 * The spinner that stands for a whole page while it loads. Its space is padding, not margin: a
 * margin at the top of a full-screen page collapses through <body> and moves the body itself, and
 * the page then jumped by a fifth of the screen when it arrived (a layout shift of 0.2).
 */
export function PageSpinner({ label }: { label: string }) {
  return <Spin size="large" style={{ display: "block", paddingBlock: "20vh" }} aria-label={label} />;
}
