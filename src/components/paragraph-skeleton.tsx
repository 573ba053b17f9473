/**
 * A heading and three lines, pulsing, drawn exactly as antd's `<Skeleton active />` draws them (the
 * same markup, classes and style rules, through Skeleton's own style hook). antd's Skeleton
 * carries its avatar, button, input and image shapes along, which a placeholder for text never
 * shows; every other placeholder uses antd's Skeleton.
 */
import useSkeletonStyle from "antd/es/skeleton/style";
import { classList, useAntdStyle } from "./antd-drawing";

export function ParagraphSkeleton() {
  const { prefixCls, wrapCSSVar, hashId, cssVarCls } = useAntdStyle("skeleton", useSkeletonStyle);
  return wrapCSSVar(
    <div className={classList(prefixCls, `${prefixCls}-active`, hashId, cssVarCls)}>
      <div className={`${prefixCls}-content`}>
        <h3 className={`${prefixCls}-title`} style={{ width: "38%" }} />
        <ul className={`${prefixCls}-paragraph`}>
          <li />
          <li />
          <li style={{ width: "61%" }} />
        </ul>
      </div>
    </div>,
  );
}
