import { describe, expect, it } from "vitest";
import { classesInMarkup, criticalCss } from "../../../../scripts/lib/critical-css";

describe("criticalCss keeps the rules a page's markup uses", () => {
  const markup = '<div class="ant-btn css-x ant-btn-primary"><span class="label">Go</span></div>';
  const classes = classesInMarkup(markup);

  it("reads every class of every class attribute", () => {
    expect([...classes].sort()).toEqual(["ant-btn", "ant-btn-primary", "css-x", "label"]);
  });

  it("keeps a rule whose classes are all on the page and drops one naming a class that is not", () => {
    const css = ".ant-btn{color:red}.ant-btn-dangerous{color:blue}:where(.css-x).ant-btn-primary:hover{color:green}";
    expect(criticalCss(css, classes)).toBe(".ant-btn{color:red}:where(.css-x).ant-btn-primary:hover{color:green}");
  });

  it("keeps the used selectors of a selector list and the rules without classes", () => {
    expect(criticalCss(".label,.ant-table{margin:0}html{font-size:16px}a[href]{color:red}", classes)).toBe(
      ".label{margin:0}html{font-size:16px}a[href]{color:red}",
    );
  });

  it("prunes inside @media and drops a block left empty; keeps @keyframes whole", () => {
    const css =
      "@media (max-width:575px){.ant-btn{padding:0}.ant-col-xs-24{width:100%}}@media print{.ant-table{display:none}}@keyframes spin{from{transform:rotate(0)}to{transform:rotate(360deg)}}";
    expect(criticalCss(css, classes)).toBe(
      "@media (max-width:575px){.ant-btn{padding:0}}@keyframes spin{from{transform:rotate(0)}to{transform:rotate(360deg)}}",
    );
  });

  it("is not misled by braces in strings", () => {
    expect(criticalCss('.label::after{content:"}{"}.gone{color:red}', classes)).toBe('.label::after{content:"}{"}');
  });

  it("refuses CSS with an unclosed block instead of writing half of it", () => {
    expect(() => criticalCss(".label{color:red", classes)).toThrow(/Unbalanced braces/);
  });
});
