/**
 * A new record's guided first setup: the stock read uploaded, the identify bytes picked from the
 * ids the server finds printed in it, a definition imported, and the checksum schemes picked from
 * the known ones that verify on the read. Each pick is saved into the record as it is made.
 */
import { useCustom, useCustomMutation, useInvalidate } from "@refinedev/core";
import { Alert, Button, Card, Checkbox, Flex, Skeleton, Steps, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { apiPaths, apiRoutes } from "../../../contracts/api-paths";
import type { FirmwareFirstSetup, FirmwareSupport } from "../../../contracts/firmware-support";
import { failureText } from "../../lib/http-errors";

const hex = (n: number) => `0x${n.toString(16).toUpperCase()}`;

/** The record as the PUT takes it, with some of its fields replaced. */
function useSaveRecord(record: FirmwareSupport) {
  const { mutate, mutation } = useCustomMutation<FirmwareSupport>();
  const invalidate = useInvalidate();
  const [error, setError] = useState<string | null>(null);
  const save = (changes: Pick<Partial<FirmwareSupport>, "identify" | "checksums">, done: string) =>
    mutate(
      {
        url: apiPaths["firmware-support"].create,
        method: "put",
        values: {
          firmwareId: record.firmwareId,
          ecuFamily: record.ecuFamily,
          manufacturer: record.manufacturer,
          imageSize: record.imageSize,
          identify: record.identify,
          checksums: record.checksums,
          definition: record.definition,
          notes: record.notes,
          ...changes,
        },
        successNotification: { type: "success", message: done },
        errorNotification: false,
      },
      {
        onSuccess: () => {
          setError(null);
          void invalidate({ resource: "firmware-support", id: record.id, invalidates: ["list", "detail"] });
        },
        onError: (failure) => setError(failureText(failure)),
      },
    );
  return { save, saving: mutation.isPending, error };
}

function IdentifyStep({ record, setup }: { record: FirmwareSupport; setup: FirmwareFirstSetup }) {
  const [ticked, setTicked] = useState<number[]>([]);
  const { save, saving, error } = useSaveRecord(record);
  if (setup.candidates.length === 0)
    return <Alert type="info" showIcon message="No part number or software id is printed in this read." />;
  const chosen = setup.candidates.filter((c) => ticked.includes(c.offset));
  return (
    <Flex vertical gap={8}>
      <Typography.Text>
        Text found in the stock read that looks like a part number or software id. Tick what tells this firmware apart:
        every rule must match for an image to be recognised.
      </Typography.Text>
      <Table
        aria-label="Identify candidates"
        size="small"
        pagination={false}
        rowKey="offset"
        dataSource={setup.candidates}
        rowSelection={{
          selectedRowKeys: ticked,
          onChange: (keys) => setTicked(keys as number[]),
        }}
        columns={[
          { title: "Offset", dataIndex: "offset", render: hex },
          {
            title: "Text",
            dataIndex: "text",
            render: (text: string) => <Typography.Text code>{text}</Typography.Text>,
          },
          { title: "Looks like", dataIndex: "kind", render: (kind: string) => kind.replace("-", " ") },
        ]}
      />
      {error && <Alert type="error" showIcon role="alert" message={error} />}
      <Button
        type="primary"
        disabled={chosen.length === 0}
        loading={saving}
        style={{ alignSelf: "start" }}
        onClick={() =>
          save(
            { identify: chosen.map((c) => ({ address: c.offset, text: c.text })) },
            `${chosen.length} identify rules saved`,
          )
        }
      >
        Use {chosen.length} as identify rules
      </Button>
    </Flex>
  );
}

function ChecksumStep({ record, setup }: { record: FirmwareSupport; setup: FirmwareFirstSetup }) {
  const verifying = setup.schemes.filter((trial) => trial.verifies);
  const [ticked, setTicked] = useState<string[]>(() => verifying.map((trial) => trial.scheme.name));
  const { save, saving, error } = useSaveRecord(record);
  if (setup.schemes.length === 0)
    return <Alert type="info" showIcon message="The catalogue knows no checksum scheme for images of this size yet." />;
  const chosen = verifying.filter((trial) => ticked.includes(trial.scheme.name)).map((trial) => trial.scheme);
  return (
    <Flex vertical gap={8}>
      <Typography.Text>
        The checksum schemes known for {record.imageSize.toLocaleString()}-byte images, tried on the stock read. Only
        those that verify can be used.
      </Typography.Text>
      <Flex vertical gap={4} role="list" aria-label="Known checksum schemes">
        {setup.schemes.map((trial) => (
          <Flex key={`${trial.scheme.name}-${trial.from.join()}`} gap={8} align="center" role="listitem" wrap>
            <Checkbox
              aria-label={`Use ${trial.scheme.name}`}
              disabled={!trial.verifies}
              checked={trial.verifies && ticked.includes(trial.scheme.name)}
              onChange={(event) =>
                setTicked((names) =>
                  event.target.checked
                    ? [...names, trial.scheme.name]
                    : names.filter((name) => name !== trial.scheme.name),
                )
              }
            >
              {trial.scheme.name}
            </Checkbox>
            <Tag>{trial.scheme.type}</Tag>
            {trial.verifies ? (
              <Tag color="green">verifies</Tag>
            ) : (
              <Tag color="red">{trial.unusable ?? "does not verify"}</Tag>
            )}
            <Typography.Text type="secondary">from {trial.from.join(", ")}</Typography.Text>
          </Flex>
        ))}
      </Flex>
      {error && <Alert type="error" showIcon role="alert" message={error} />}
      <Button
        type="primary"
        disabled={chosen.length === 0}
        loading={saving}
        style={{ alignSelf: "start" }}
        onClick={() => save({ checksums: chosen }, `${chosen.length} checksum schemes saved`)}
      >
        Use {chosen.length} checksum schemes
      </Button>
    </Flex>
  );
}

/** Shown on a record until it has identify rules and checksum schemes. */
export function FirstSetup({ record }: { record: FirmwareSupport }) {
  const next = !record.stockFile ? 0 : record.identify.length === 0 ? 1 : !record.definition ? 2 : 3;
  const [step, setStep] = useState(next);
  const [seen, setSeen] = useState(next);
  // A step finished moves the wizard on; a step the admin went back to stays open.
  if (next !== seen) {
    setSeen(next);
    setStep(next);
  }
  const { query } = useCustom<FirmwareFirstSetup>({
    url: apiRoutes.firmwareSupport.firstSetup(record.id),
    method: "get",
    queryOptions: { enabled: Boolean(record.stockFile) && step > 0, queryKey: ["first-setup", record.updatedAt] },
  });
  const setup = query.data?.data;
  const needsSetup = !record.stockFile || step > 0;
  const body =
    step === 0 ? (
      <Typography.Text>Upload the stock read under Stock file below: it can be taken before any rule.</Typography.Text>
    ) : step === 2 ? (
      <Flex vertical gap={8} align="start">
        <Typography.Text>Import the definition under Definition below, then pick the checksum schemes.</Typography.Text>
        <Button onClick={() => setStep(3)}>Next: checksum schemes</Button>
      </Flex>
    ) : query.isError ? (
      <Alert type="error" showIcon role="alert" message={failureText(query.error)} />
    ) : !setup ? (
      <Skeleton active paragraph={{ rows: 2 }} />
    ) : step === 1 ? (
      <IdentifyStep key={record.updatedAt} record={record} setup={setup} />
    ) : (
      <ChecksumStep key={record.updatedAt} record={record} setup={setup} />
    );
  return (
    <Card size="small" title="First setup" data-testid="first-setup">
      <Flex vertical gap={12}>
        <Steps
          size="small"
          current={step}
          onChange={(to) => (to === 0 || record.stockFile) && setStep(to)}
          items={[
            { title: "Stock read", status: record.stockFile ? "finish" : undefined },
            { title: "Identify bytes", status: record.identify.length > 0 ? "finish" : undefined },
            { title: "Definition", status: record.definition ? "finish" : undefined },
            { title: "Checksums", status: record.checksums.length > 0 ? "finish" : undefined },
          ]}
        />
        {needsSetup && body}
      </Flex>
    </Card>
  );
}
