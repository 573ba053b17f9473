import { Link } from "./link";
import "./brand.css";

export const PRODUCT_NAME = "Tuning Portal";

export function BrandMark({ to = "/" }: { to?: string }) {
  return (
    <Link
      to={to}
      style={{
        display: "inline-flex",
        alignItems: "center",
        gap: 8,
        fontWeight: 700,
        fontSize: 18,
        color: "inherit",
        whiteSpace: "nowrap",
        flexShrink: 0,
      }}
    >
      <img src="/favicon.svg" alt="" width={28} height={28} />
      <span className="brand-name">{PRODUCT_NAME}</span>
    </Link>
  );
}
