/**
 * A firmware record: what it has, its stock file (upload with the identify,
 * size and checksum checks; SHA-256 shown; download), its definition
 * (imported from an XDF or a RomRaider/EcuFlash file, with a preview), and
 * flashing support (profile, blocks, bootloader).
 */
import { DownloadOutlined } from "@ant-design/icons";
import { useApiUrl, useOne } from "@refinedev/core";
import { Alert, Button, Descriptions, Divider, Flex, Form, Skeleton, Switch, Typography } from "antd";
import { apiPaths, apiRoutes } from "../../../contracts/api-paths";
import { type FirmwareSupport, flashingSupportInputSchema } from "../../../contracts/firmware-support";
import { useRecordMissing } from "../../components/record-not-found";
import { FileUpload } from "../../components/resource/file-upload";
import { Field, FormError, useContractForm } from "../../components/resource/form";
import { usePut } from "../../components/resource/use-put";
import { API_PREFIX } from "../../providers/data-provider";
import { DefinitionImport } from "./definition-import";
import { FirstSetup } from "./first-setup";
import { FlashBlocksEditor, FlashingProfileEditor } from "./rule-editors";

const Sha = ({ value }: { value: string }) => (
  <Typography.Text code copyable data-testid="sha256">
    {value}
  </Typography.Text>
);

function FlashingForm({ record }: { record: FirmwareSupport }) {
  const form = useContractForm(flashingSupportInputSchema, {
    firmwareId: record.firmwareId,
    enabled: record.flashing.enabled,
    profile: record.flashing.profile,
    blocks: record.flashing.blocks,
  });
  const { save, saving } = usePut<FirmwareSupport>(
    form,
    "firmware-support",
    apiRoutes.firmwareSupport.flashingSupport(),
  );
  const submit = form.handleSubmit((values) => save(values, "Flashing support saved"));
  return (
    <Form layout="vertical" onFinish={() => void submit()} aria-label="Flashing support">
      <FormError message={form.formError} />
      <Field control={form.control} name="enabled" label="Flashing enabled" help="Needs a stock file and a bootloader">
        {({ value, onChange }) => <Switch checked={value} onChange={onChange} />}
      </Field>
      <Field
        control={form.control}
        name="profile"
        label="Profile"
        help="UDS security access and timings; CAN ids in hex"
      >
        {(field) => <FlashingProfileEditor id={field.id} value={field.value} onChange={field.onChange} />}
      </Field>
      <Field
        control={form.control}
        name="blocks"
        label="Blocks"
        help="What is flashed: each block's number, base address, length, offset in the file and transfer size"
      >
        {(field) => <FlashBlocksEditor id={field.id} value={field.value} onChange={field.onChange} />}
      </Field>
      <Button htmlType="submit" loading={saving}>
        Save flashing support
      </Button>
    </Form>
  );
}

export function FirmwareShow({ id, onEdit }: { id: string; onEdit: () => void }) {
  const apiUrl = useApiUrl();
  const { query, result: record } = useOne<FirmwareSupport>({
    resource: "firmware-support",
    id,
    meta: { apiPath: apiPaths["firmware-support"].record },
  });
  const missing = useRecordMissing(query.error);
  if (missing) return null;
  if (query.isLoading || !record) return <Skeleton active />;
  return (
    <Flex vertical gap={16}>
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label="Firmware id">{record.firmwareId}</Descriptions.Item>
        <Descriptions.Item label="Manufacturer">{record.manufacturer}</Descriptions.Item>
        <Descriptions.Item label="ECU family">{record.ecuFamily}</Descriptions.Item>
        <Descriptions.Item label="Image size">{record.imageSize.toLocaleString()} bytes</Descriptions.Item>
        <Descriptions.Item label="Identify rules">{record.identify.length}</Descriptions.Item>
        <Descriptions.Item label="Checksum schemes">
          {record.checksums.map((c) => c.name).join(", ") || "none"}
        </Descriptions.Item>
        <Descriptions.Item label="Definition">
          {record.definition ? `${record.definition.items.length} maps` : "none"}
        </Descriptions.Item>
        {record.notes && <Descriptions.Item label="Notes">{record.notes}</Descriptions.Item>}
      </Descriptions>
      {record.identify.length === 0 && (
        <Alert
          type="warning"
          showIcon
          message="No identify rules: this record will never recognise an image."
          description="Add the bytes or text that tell its images apart (the first setup below proposes some from the stock read)."
        />
      )}
      <Button onClick={onEdit} style={{ alignSelf: "start" }}>
        Edit record
      </Button>
      {(record.identify.length === 0 || record.checksums.length === 0) && <FirstSetup record={record} />}

      <Divider orientation="left">Stock file</Divider>
      {record.stockFile ? (
        <Flex vertical gap={4}>
          <span>
            {record.stockFile.size.toLocaleString()} bytes, uploaded{" "}
            {new Date(record.stockFile.uploadedAt).toLocaleString()}
          </span>
          <span>
            SHA-256 <Sha value={record.stockFile.sha256} />
          </span>
          <Button
            icon={<DownloadOutlined />}
            href={`${apiUrl}/firmware-support/stock-file/${record.id}`}
            style={{ alignSelf: "start" }}
          >
            Download
          </Button>
        </Flex>
      ) : (
        <Typography.Text type="secondary">
          No stock file yet. It must be {record.imageSize.toLocaleString()} bytes, match the identify rules and pass
          every checksum.
        </Typography.Text>
      )}
      {record.checksums.length === 0 && (
        <Alert
          type="warning"
          showIcon
          data-testid="no-checksum-warning"
          message={
            record.stockFile
              ? "No checksum scheme: this stock file was taken without a checksum check."
              : "No checksum scheme: a stock file uploaded now is taken without a checksum check."
          }
          description="Tunes for this firmware cannot have their checksums verified or fixed until the record has one."
        />
      )}
      <FileUpload
        url={apiRoutes.firmwareSupport.stockFile(record.id)}
        label="Upload stock file"
        resource="firmware-support"
        id={record.id}
        testId="stock-upload"
      />

      <Divider orientation="left">Definition</Divider>
      <Typography.Text type="secondary">
        {record.definition
          ? `${record.definition.items.length} maps in ${record.definition.categories.length} categories.`
          : "No definition yet."}{" "}
        Import one from a TunerPro XDF or a RomRaider/EcuFlash file
        {record.stockFile
          ? "; the preview reads a few maps from the stock file."
          : "; with a stock file uploaded, the preview also shows a few maps read from it."}
      </Typography.Text>
      <DefinitionImport key={record.id} record={record} />
      {record.definition && (
        <Typography.Link href={`${API_PREFIX}/${apiRoutes.firmwareSupport.definitionXdf(record.id)}`} download>
          Export the definition as a TunerPro XDF
        </Typography.Link>
      )}

      <Divider orientation="left">Flashing support</Divider>
      {record.flashing.bootloader ? (
        <span>
          Bootloader {record.flashing.bootloader.name} ({record.flashing.bootloader.size.toLocaleString()} bytes),
          SHA-256 <Sha value={record.flashing.bootloader.sha256} />
        </span>
      ) : (
        <Typography.Text type="secondary">No bootloader yet.</Typography.Text>
      )}
      <FileUpload
        url={apiRoutes.firmwareSupport.bootloader(record.id)}
        label="Upload bootloader"
        resource="firmware-support"
        id={record.id}
      />
      <FlashingForm key={record.updatedAt} record={record} />
    </Flex>
  );
}
