/**
 * Create or edit a tune-file patch (PUT /tune-file-patches, contract schema):
 * entries are written as hex lines or made by diffing a stock image against a
 * patched one. The server checks the base bytes against each firmware's stock
 * file, so a refusal there names the firmware and addresses.
 */
import { useOne } from "@refinedev/core";
import { Alert, Button, Flex, Form, Input, Skeleton, Typography, Upload } from "antd";
import { useState } from "react";
import { type TuneFilePatch, type TuneFilePatchInput, tuneFilePatchInputSchema } from "../../../contracts/tune-files";
import { useRecordMissing } from "../../components/record-not-found";
import { Field, FirmwareIdsField, FormError, SaveButton, useContractForm } from "../../components/resource/form";
import { usePut } from "../../components/resource/use-put";
import { entriesFromImages, formatEntries, parseEntries } from "./entries";

const readBytes = (file: File) => file.arrayBuffer().then((buffer) => new Uint8Array(buffer));

/** Two file pickers; when both are chosen, their difference becomes the entries. */
function DiffImages({ onEntries }: { onEntries: (text: string) => void }) {
  const [files, setFiles] = useState<{ base?: File; patched?: File }>({});
  const [message, setMessage] = useState<{ type: "error" | "success"; text: string } | null>(null);
  const pick = (which: "base" | "patched") => (file: File) => {
    const next = { ...files, [which]: file };
    setFiles(next);
    if (next.base && next.patched) {
      void Promise.all([readBytes(next.base), readBytes(next.patched)]).then(([base, patched]) => {
        const result = entriesFromImages(base, patched);
        if ("error" in result) setMessage({ type: "error", text: result.error });
        else {
          onEntries(formatEntries(result.entries));
          setMessage({ type: "success", text: `${result.entries.length} entries from the difference` });
        }
      });
    }
    return false;
  };
  return (
    <Flex vertical gap={8}>
      <Flex gap={8} wrap>
        <Upload beforeUpload={pick("base")} showUploadList={false} accept=".bin,.ori,.mod,application/octet-stream">
          <Button>{files.base ? `Original: ${files.base.name}` : "Original image…"}</Button>
        </Upload>
        <Upload beforeUpload={pick("patched")} showUploadList={false} accept=".bin,.ori,.mod,application/octet-stream">
          <Button>{files.patched ? `Patched: ${files.patched.name}` : "Patched image…"}</Button>
        </Upload>
      </Flex>
      {message && <Alert type={message.type} showIcon message={message.text} />}
    </Flex>
  );
}

function PatchFormFields({ record, onSaved }: { record?: TuneFilePatch; onSaved: (saved: TuneFilePatch) => void }) {
  const form = useContractForm(tuneFilePatchInputSchema, {
    ...(record && { id: record.id }),
    title: record?.title ?? "",
    description: record?.description ?? "",
    firmwareIds: record?.firmwareIds ?? [],
    entries: record?.entries ?? [],
  } as TuneFilePatchInput);
  const [text, setText] = useState(record ? formatEntries(record.entries) : "");
  const [textError, setTextError] = useState<string | null>(null);
  const { save, saving } = usePut<TuneFilePatch>(form, "tune-file-patches", "tune-file-patches");
  const { control } = form;

  const setEntries = (value: string) => {
    setText(value);
    const parsed = parseEntries(value);
    setTextError("error" in parsed ? parsed.error : null);
    if ("entries" in parsed) form.setValue("entries", parsed.entries, { shouldValidate: form.formState.isSubmitted });
  };
  const submit = form.handleSubmit((values) => save(values, `Saved patch ${values.title}`, onSaved));

  return (
    <Form layout="vertical" onFinish={() => void submit()} aria-label="Tune-file patch">
      <FormError message={form.formError} />
      <Field control={control} name="title" label="Title" required>
        {(field) => <Input {...field} />}
      </Field>
      <Field control={control} name="description" label="Description">
        {(field) => <Input.TextArea {...field} rows={2} />}
      </Field>
      <FirmwareIdsField
        control={control}
        label="Firmware ids"
        required
        help="The software ids this patch applies to; type and press Enter"
      />
      <Field
        control={control}
        name="entries"
        label="Entries"
        required
        help="One per line: address patch base (hex), or make them from two images below"
      >
        {() => (
          <Flex vertical gap={8}>
            <Input.TextArea
              value={text}
              onChange={(event) => setEntries(event.target.value)}
              rows={8}
              spellCheck={false}
              style={{ fontFamily: "monospace" }}
              aria-label="Entries as hex"
              placeholder="0x1A2B 9090 7501"
            />
            {textError && text.trim() && <Typography.Text type="danger">{textError}</Typography.Text>}
            <DiffImages onEntries={setEntries} />
          </Flex>
        )}
      </Field>
      <SaveButton saving={saving}>Save patch</SaveButton>
    </Form>
  );
}

export function PatchForm({ id, onSaved }: { id?: string; onSaved: (saved: TuneFilePatch) => void }) {
  const { result, query } = useOne<TuneFilePatch>({
    resource: "tune-file-patches",
    id: id ?? "",
    queryOptions: { enabled: Boolean(id) },
  });
  const missing = useRecordMissing(query.error);
  if (missing) return null;
  if (id && (query.isLoading || !result)) return <Skeleton active />;
  return <PatchFormFields record={id ? result : undefined} onSaved={onSaved} />;
}
