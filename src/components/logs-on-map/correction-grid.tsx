/**
 * A map's cells with the log evidence on them: per cell the map's value, how many samples the logs
 * put there and their mean, greyed where the logs never went; where a change is proposed, the new
 * value, marked once the dealer accepted it. A click on a proposed cell accepts or drops it.
 */
import { theme } from "antd";
import type { ItemValues } from "../../../contracts/tune-definition";
import type { MapCorrection } from "../../../domain/logs/map-corrections";
import type { MapHistogram } from "../../../domain/logs/map-histogram";

const show = (value: number) => String(Math.round(value * 1000) / 1000);
const header = (axis: ItemValues["x"], count: number) =>
  axis ? ("labels" in axis ? axis.labels : axis.values.map(show)) : Array.from({ length: count }, (_, i) => String(i));

interface Props {
  values: ItemValues;
  histogram: MapHistogram;
  correction?: MapCorrection;
  /** Accepted cells by value index, at the value the dealer keeps. */
  accepted?: ReadonlyMap<number, number>;
  onToggle?: (index: number) => void;
  label: string;
}

export function CorrectionGrid({ values, histogram, correction, accepted, onToggle, label }: Props) {
  const { token } = theme.useToken();
  const cols = header(values.x, values.cols);
  const rows = header(values.y, values.rows);
  const cellStyle = { border: `1px solid ${token.colorBorderSecondary}`, padding: "2px 4px", fontSize: 12 };
  return (
    <div style={{ overflowX: "auto", maxWidth: "100%" }}>
      <table aria-label={label} style={{ borderCollapse: "collapse", fontVariantNumeric: "tabular-nums" }}>
        <thead>
          <tr>
            <th style={cellStyle}>{`${values.y?.unit ?? ""} · ${values.x?.unit ?? ""}`}</th>
            {cols.map((text, c) => (
              <th key={c} scope="col" style={cellStyle}>
                {text}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {histogram.cells.map((line, r) => (
            <tr key={r}>
              <th scope="row" style={cellStyle}>
                {rows[r]}
              </th>
              {line.map((cell, c) => {
                const k = r * values.cols + c;
                const proposal = correction?.cells[k] ?? null;
                const kept = accepted?.get(k);
                const background =
                  cell.count === 0
                    ? token.colorFillSecondary
                    : kept !== undefined
                      ? token.colorSuccessBg
                      : proposal
                        ? token.colorWarningBg
                        : undefined;
                return (
                  <td
                    key={c}
                    data-testid="map-cell"
                    data-visited={cell.count > 0}
                    aria-label={`${rows[r]}, ${cols[c]}`}
                    onClick={proposal && onToggle ? () => onToggle(k) : undefined}
                    style={{
                      ...cellStyle,
                      background,
                      color: cell.count === 0 ? token.colorTextDisabled : undefined,
                      cursor: proposal && onToggle ? "pointer" : undefined,
                      minWidth: 56,
                    }}
                  >
                    <div>{show(values.values[k])}</div>
                    {cell.count > 0 && (
                      <div style={{ color: token.colorTextSecondary }}>
                        {`n ${cell.count} · ${show(cell.mean as number)}`}
                      </div>
                    )}
                    {proposal && <div style={{ fontWeight: 600 }}>{`→ ${show(kept ?? proposal.after)}`}</div>}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
