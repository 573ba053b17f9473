/**
 * Numbered steps to read, drawn exactly as antd's vertical Steps draws them with no step current
 * (the same markup, classes and style rules, through Steps' own style hook). antd's Steps brings
 * rc-steps, Progress and Tooltip for steps that are clicked, timed or current (about 12 kB
 * gzipped), which a list of how something works never uses. Steps that track progress use antd's Steps.
 */
import useStepsStyle from "antd/es/steps/style";
import type { ReactNode } from "react";
import { classList, useAntdStyle } from "./antd-drawing";

export interface StepItem {
  title: ReactNode;
  description?: ReactNode;
}

export function StepList({ items }: { items: readonly StepItem[] }) {
  const { prefixCls, wrapCSSVar, hashId, cssVarCls } = useAntdStyle("steps", useStepsStyle);
  const item = `${prefixCls}-item`;
  return wrapCSSVar(
    <div className={classList(prefixCls, `${prefixCls}-vertical`, hashId, cssVarCls)}>
      {items.map((step, index) => (
        <div key={index} className={`${item} ${item}-wait`}>
          <div className={`${item}-container`}>
            <div className={`${item}-tail`} />
            <div className={`${item}-icon`}>
              <span className={`${prefixCls}-icon`}>{index + 1}</span>
            </div>
            <div className={`${item}-content`}>
              <div className={`${item}-title`}>{step.title}</div>
              {step.description !== undefined && <div className={`${item}-description`}>{step.description}</div>}
            </div>
          </div>
        </div>
      ))}
    </div>,
  );
}
