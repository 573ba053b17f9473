/**
 * Security-access secrets per firmware: masked in the list; "Reveal" asks the
 * server for one secret, which records who saw it and when.
 */
import { EyeOutlined } from "@ant-design/icons";
import { getDefaultSortOrder } from "@refinedev/antd";
import { useCustomMutation } from "@refinedev/core";
import { Button, Form, Input, InputNumber, Popconfirm, Table, Typography } from "antd";
import { useState } from "react";
import { apiPaths } from "../../../contracts/api-paths";
import { type FirmwareSecretRow, firmwareSecretInputSchema } from "../../../contracts/firmware-support";
import { exactFilter } from "../../components/resource/column-filters";
import { Field, FormError, useContractForm } from "../../components/resource/form";
import { ListWithDrawers } from "../../components/resource/list-with-drawers";
import { usePut } from "../../components/resource/use-put";
import { FirmwareSections } from "../firmware-support/section-tabs";

const PATH = "/admin/firmware-support/passwords";

function SecretForm({ onSaved }: { onSaved: () => void }) {
  const form = useContractForm(firmwareSecretInputSchema, { firmwareId: "", label: "", securityLevel: 1, secret: "" });
  const { save, saving } = usePut(form, "password-storage", apiPaths["password-storage"].create);
  const submit = form.handleSubmit((values) => save(values, "Password stored", onSaved));
  return (
    <Form layout="vertical" onFinish={() => void submit()} aria-label="Stored password">
      <FormError message={form.formError} />
      <Field control={form.control} name="firmwareId" label="Firmware id" required>
        {(field) => <Input {...field} />}
      </Field>
      <Field control={form.control} name="label" label="Label" required>
        {(field) => <Input {...field} />}
      </Field>
      <Field control={form.control} name="securityLevel" label="Security level" required>
        {(field) => <InputNumber {...field} min={1} max={125} style={{ width: "100%" }} />}
      </Field>
      <Field control={form.control} name="secret" label="Secret" required>
        {(field) => <Input.Password {...field} autoComplete="off" />}
      </Field>
      <Button type="primary" htmlType="submit" loading={saving}>
        Store
      </Button>
    </Form>
  );
}

function Reveal({ id }: { id: string }) {
  const [secret, setSecret] = useState<string | null>(null);
  const { mutate, mutation } = useCustomMutation<FirmwareSecretRow>();
  if (secret !== null)
    return (
      <Typography.Text code copyable>
        {secret}
      </Typography.Text>
    );
  return (
    <Popconfirm
      title="Reveal this secret?"
      description="The reveal is recorded with your account."
      onConfirm={() =>
        mutate(
          { url: `${apiPaths["password-storage"].record}/${id}/reveal`, method: "post", values: {} },
          { onSuccess: ({ data }) => setSecret(data.secret) },
        )
      }
    >
      <Button size="small" icon={<EyeOutlined />} loading={mutation.isPending}>
        Reveal
      </Button>
    </Popconfirm>
  );
}

export function PasswordStorageList() {
  return (
    <ListWithDrawers<FirmwareSecretRow>
      resource="password-storage"
      path={PATH}
      sort={{ field: "firmwareId", order: "asc" }}
      title="Firmware support"
      subtitle="Security-access secrets per firmware; every reveal is recorded"
      createLabel="Store password"
      sections={<FirmwareSections />}
      searchPlaceholder="Search firmware id and label"
      tableLabel="Stored passwords"
      columns={({ filters, sorters }) => (
        <>
          <Table.Column
            dataIndex="firmwareId"
            title="Firmware"
            sorter
            defaultSortOrder={getDefaultSortOrder("firmwareId", sorters)}
            {...exactFilter("firmwareId", "Firmware id", filters)}
          />
          <Table.Column dataIndex="label" title="Label" sorter />
          <Table.Column
            dataIndex="securityLevel"
            title="Level"
            render={(n: number) => `0x${n.toString(16).toUpperCase()}`}
          />
          <Table.Column key="secret" title="Secret" render={(_, row: FirmwareSecretRow) => <Reveal id={row.id} />} />
        </>
      )}
      nameOf={(row) => `${row.firmwareId} ${row.label}`}
      editable={false}
      form={{ createTitle: "Store a password", render: (_, drawer) => <SecretForm onSaved={drawer.close} /> }}
    />
  );
}
