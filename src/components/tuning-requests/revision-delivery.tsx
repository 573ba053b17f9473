/**
 * The dealer delivers a revision through a dialog: it says what the file must be (the request's
 * firmware, at the size of the car's stock read, with checksums that verify or that the portal
 * fixes), takes the file and a note, has the server check the file exactly as a delivery would
 * (`dryRun`) and shows what it found, and delivers only a file that passed. Refusals are the
 * server's sentences, told in the request's terms.
 */
import { UploadOutlined } from "@ant-design/icons";
import { type HttpError, useCustomMutation } from "@refinedev/core";
import { Alert, Button, Checkbox, Flex, Input, Modal, Typography, Upload } from "antd";
import { useState } from "react";
import { apiRoutes } from "../../../contracts/api-paths";
import type { RevisionCheck, TuningRequest } from "../../../contracts/tuning-requests";
import { imageSizeText } from "../../../domain/tune/image-size";
import { failureText } from "../../lib/http-errors";

interface Props {
  ticket: TuningRequest;
  onChanged: (ticket: TuningRequest) => void;
}

function revisionForm(file: File, note: string, fix: boolean, dryRun: boolean): FormData {
  const data = new FormData();
  data.append("note", note);
  if (fix) data.append("fixChecksums", "true");
  if (dryRun) data.append("dryRun", "true");
  data.append("file", file);
  return data;
}

function CheckResult({ check }: { check: RevisionCheck }) {
  const changed = check.changesFromStock;
  const checksums = check.checksumsFixed
    ? `${check.checksums.length} checksum${check.checksums.length === 1 ? "" : "s"} fixed by the portal`
    : `${check.checksums.length} checksum${check.checksums.length === 1 ? "" : "s"} valid`;
  return (
    <Alert
      type="success"
      showIcon
      role="status"
      message={`The file fits: ${check.firmwareId}, ${imageSizeText(check.size)}, ${checksums}`}
      description={
        changed.length === 0
          ? "It changes no map from stock."
          : `It changes ${changed.length} map${changed.length === 1 ? "" : "s"} from stock: ${changed.map((c) => c.title).join(", ")}.`
      }
    />
  );
}

function DeliveryDialog({ ticket, onChanged, onClose }: Props & { onClose: () => void }) {
  const number = ticket.revisions + 1;
  const [file, setFile] = useState<File | null>(null);
  const [note, setNote] = useState("");
  const [fix, setFix] = useState(false);
  const [check, setCheck] = useState<RevisionCheck | null>(null);
  const [error, setError] = useState<string | null>(null);
  const checking = useCustomMutation<RevisionCheck>();
  const delivering = useCustomMutation<TuningRequest>();
  const refused = (failure: HttpError) => setError(failureText(failure));

  const runCheck = (chosen: File, fixing: boolean) => {
    setCheck(null);
    setError(null);
    checking.mutate(
      {
        url: apiRoutes.tuningRequests.revisions(ticket.id),
        method: "post",
        values: revisionForm(chosen, "", fixing, true),
        successNotification: false,
        errorNotification: false,
      },
      { onSuccess: ({ data }) => setCheck(data), onError: refused },
    );
  };
  const deliver = () => {
    if (!file) return;
    setError(null);
    delivering.mutate(
      {
        url: apiRoutes.tuningRequests.revisions(ticket.id),
        method: "post",
        values: revisionForm(file, note, fix, false),
        successNotification: { type: "success", message: `Revision ${number} delivered` },
        errorNotification: false,
      },
      {
        onSuccess: ({ data }) => {
          onChanged(data);
          onClose();
        },
        onError: refused,
      },
    );
  };

  return (
    <Modal
      open
      title={`Deliver revision ${number}: ${ticket.reference}`}
      okText={`Deliver revision ${number}`}
      okButtonProps={{ disabled: !check, loading: delivering.mutation.isPending }}
      onOk={deliver}
      onCancel={onClose}
      destroyOnHidden
    >
      <Flex vertical gap={12}>
        <Typography.Paragraph style={{ marginBottom: 0 }}>
          The file must be firmware <Typography.Text strong>{ticket.firmwareId}</Typography.Text> at{" "}
          <Typography.Text strong>{imageSizeText(ticket.vehicle.stockSize)}</Typography.Text>, the size of the car's
          stock read, with checksums that verify, or tick below for the portal to fix them. It is checked before it is
          delivered; the customer can flash it as soon as it is.
        </Typography.Paragraph>
        <Flex gap={8} align="center" wrap>
          <Upload
            beforeUpload={(chosen) => {
              setFile(chosen);
              runCheck(chosen, fix);
              return false;
            }}
            showUploadList={false}
            accept=".bin,.ori,.mod,.hex"
          >
            <Button icon={<UploadOutlined />} loading={checking.mutation.isPending}>
              {file ? "Choose another file" : "Choose the file"}
            </Button>
          </Upload>
          {file && (
            <Typography.Text aria-label="Chosen file">{`${file.name} (${imageSizeText(file.size)})`}</Typography.Text>
          )}
        </Flex>
        <Checkbox
          checked={fix}
          onChange={(event) => {
            setFix(event.target.checked);
            if (file) runCheck(file, event.target.checked);
          }}
        >
          Fix failing checksums
        </Checkbox>
        <Input.TextArea
          value={note}
          onChange={(event) => setNote(event.target.value)}
          rows={3}
          placeholder="What this revision changes"
          aria-label="Revision note"
          maxLength={4000}
        />
        {check && <CheckResult check={check} />}
        {error && (
          <Alert type="error" showIcon role="alert" message="This file cannot be delivered" description={error} />
        )}
      </Flex>
    </Modal>
  );
}

/** "Deliver revision N": opens the delivery dialog. */
export function RevisionDelivery({ ticket, onChanged }: Props) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button type="primary" icon={<UploadOutlined />} onClick={() => setOpen(true)} style={{ alignSelf: "start" }}>
        Deliver revision {ticket.revisions + 1}
      </Button>
      {open && <DeliveryDialog ticket={ticket} onChanged={onChanged} onClose={() => setOpen(false)} />}
    </>
  );
}
