/**
 * The patch apply tool: upload an image, see its inspection (firmware,
 * checksums, which patches are applied, absent or in conflict), choose absent
 * patches, and download the patched image with its checksum report
 * (POST /tune-files/inspect, then POST /tune-file-patches/apply).
 */
import { DownloadOutlined } from "@ant-design/icons";
import { type HttpError, useCustomMutation } from "@refinedev/core";
import { Alert, Button, Checkbox, Descriptions, Flex, Typography } from "antd";
import { useEffect, useState } from "react";
import { apiRoutes } from "../../../contracts/api-paths";
import type { ChecksumReport, Inspection } from "../../../contracts/tune-files";
import { ChecksumTable, InspectedImage, PatchStateTag } from "../../components/tune-inspection";

interface Applied {
  firmwareId: string;
  size: number;
  sha256: string;
  patches: Array<{ id?: string; title: string; before: string }>;
  fixed: string[];
  checksums: ChecksumReport[];
  image: string;
}

const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

export function ApplyTool() {
  const [image, setImage] = useState<{ file: File; report: Inspection | null } | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [applied, setApplied] = useState<(Applied & { url: string }) | null>(null);
  const [error, setError] = useState<HttpError | null>(null);
  const apply = useCustomMutation<Applied>();

  // The object URL holds the patched image in memory until the next result replaces it.
  useEffect(() => () => void (applied && URL.revokeObjectURL(applied.url)), [applied]);

  const run = () => {
    if (!image) return;
    const form = new FormData();
    form.append("file", image.file);
    form.append("patchIds", JSON.stringify(chosen));
    setError(null);
    apply.mutate(
      {
        url: apiRoutes.tuneFilePatches.apply(),
        method: "post",
        values: form,
        successNotification: false,
        errorNotification: false,
      },
      {
        onSuccess: ({ data }) => {
          const url = URL.createObjectURL(new Blob([fromBase64(data.image)], { type: "application/octet-stream" }));
          setApplied({ ...data, url });
        },
        onError: setError,
      },
    );
  };

  const inspection = image?.report;
  const absent = inspection?.patches.filter((p) => p.state === "absent") ?? [];
  return (
    <Flex vertical gap={16} style={{ maxWidth: 900 }}>
      <InspectedImage
        label="Choose an image…"
        onInspected={(file, report) => {
          setImage({ file, report });
          setApplied(null);
          setChosen([]);
          setError(null);
        }}
      />
      {error && (
        <Alert
          type="error"
          showIcon
          role="alert"
          message={error.message}
          description={(error as HttpError & { description?: string }).description}
        />
      )}
      {inspection?.firmwareId && (
        <Flex vertical gap={8}>
          <Typography.Title level={5}>Patches to apply</Typography.Title>
          {inspection.patches.length === 0 && (
            <Typography.Text type="secondary">No patches for {inspection.firmwareId} yet.</Typography.Text>
          )}
          <Checkbox.Group value={chosen} onChange={(values) => setChosen(values as string[])}>
            <Flex vertical gap={4}>
              {inspection.patches.map((patch) => (
                <Checkbox key={patch.id} value={patch.id} disabled={patch.state !== "absent"}>
                  {patch.title} <PatchStateTag state={patch.state} />
                </Checkbox>
              ))}
            </Flex>
          </Checkbox.Group>
          <Button
            type="primary"
            onClick={run}
            disabled={chosen.length === 0}
            loading={apply.mutation.isPending}
            style={{ alignSelf: "start" }}
          >
            Apply {chosen.length || ""} of {absent.length} absent patch{absent.length === 1 ? "" : "es"}
          </Button>
        </Flex>
      )}
      {applied && (
        <Flex vertical gap={8} data-testid="apply-result">
          <Alert
            type="success"
            showIcon
            message={`Applied ${applied.patches.length} patch(es); checksums fixed: ${applied.fixed.join(", ") || "none needed"}`}
          />
          <Descriptions size="small" bordered column={1}>
            <Descriptions.Item label="Firmware">{applied.firmwareId}</Descriptions.Item>
            <Descriptions.Item label="SHA-256">
              <Typography.Text code copyable>
                {applied.sha256}
              </Typography.Text>
            </Descriptions.Item>
          </Descriptions>
          <ChecksumTable checksums={applied.checksums} />
          <Button
            icon={<DownloadOutlined />}
            href={applied.url}
            download={`${applied.firmwareId}-patched.bin`}
            style={{ alignSelf: "start" }}
          >
            Download the patched image
          </Button>
        </Flex>
      )}
    </Flex>
  );
}
