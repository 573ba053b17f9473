/**
 * Security-access secrets per firmware: masked in the list; "Reveal" asks the
 * server for one secret, which records who saw it and when.
 */
import { EyeOutlined, PlusOutlined } from "@ant-design/icons";
import { getDefaultSortOrder } from "@refinedev/antd";
import { useCustomMutation } from "@refinedev/core";
import { Button, Flex, Form, Input, InputNumber, Popconfirm, Space, Table, Typography } from "antd";
import { useState } from "react";
import { type FirmwareSecretRow, firmwareSecretInputSchema } from "../../../contracts/catalogue";
import { PageFrame } from "../../components/page-frame";
import { useResourceTable } from "../../components/resource/use-resource-table";
import { exactFilter } from "../../components/resource/column-filters";
import { ConfirmDelete } from "../../components/resource/delete-button";
import { RouteDrawer, useDrawerRoute } from "../../components/resource/drawer-route";
import { Field, FormError, useContractForm } from "../../components/resource/form";
import { usePut } from "../../components/resource/use-put";
import { ListSearch } from "../../components/resource/list-search";
import { FirmwareSections } from "../firmware-support/section-tabs";
import { apiPaths } from "../../../contracts/api-paths";

const PATH = "/admin/firmware-support/passwords";

function SecretForm({ onSaved }: { onSaved: () => void }) {
  const form = useContractForm(firmwareSecretInputSchema, { firmwareId: "", label: "", securityLevel: 1, secret: "" });
  const { save, saving } = usePut(form, "password-storage", "firmware-support/password-storage");
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
  if (secret !== null) return <Typography.Text code copyable>{secret}</Typography.Text>;
  return (
    <Popconfirm title="Reveal this secret?" description="The reveal is recorded with your account." onConfirm={() => mutate({ url: `firmware-support/password-storage/${id}/reveal`, method: "post", values: {} }, { onSuccess: ({ data }) => setSecret(data.secret) })}>
      <Button size="small" icon={<EyeOutlined />} loading={mutation.isPending}>
        Reveal
      </Button>
    </Popconfirm>
  );
}

export function PasswordStorageList() {
  const drawer = useDrawerRoute(PATH);
  const { tableProps, filters, setFilters, sorters } = useResourceTable<FirmwareSecretRow>("password-storage", { field: "firmwareId", order: "asc" }, {
    meta: { apiPath: apiPaths["password-storage"].list },
  });
  return (
    <PageFrame
      title="Firmware support"
      subtitle="Security-access secrets per firmware; every reveal is recorded"
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={drawer.create}>
          Store password
        </Button>
      }
    >
      <FirmwareSections />
      <Flex gap={8}>
        <ListSearch filters={filters} setFilters={setFilters} placeholder="Search firmware id and label" />
      </Flex>
      <Table {...tableProps} rowKey="id" size="middle" aria-label="Stored passwords">
        <Table.Column dataIndex="firmwareId" title="Firmware" sorter defaultSortOrder={getDefaultSortOrder("firmwareId", sorters)} {...exactFilter("firmwareId", "Firmware id", filters)} />
        <Table.Column dataIndex="label" title="Label" sorter />
        <Table.Column dataIndex="securityLevel" title="Level" render={(n: number) => `0x${n.toString(16).toUpperCase()}`} />
        <Table.Column key="secret" title="Secret" render={(_, row: FirmwareSecretRow) => <Reveal id={row.id} />} />
        <Table.Column
          key="actions"
          title="Actions"
          render={(_, row: FirmwareSecretRow) => (
            <Space>
              <ConfirmDelete resource="password-storage" apiPath={apiPaths["password-storage"].record} id={row.id} name={`${row.firmwareId} ${row.label}`} />
            </Space>
          )}
        />
      </Table>
      <RouteDrawer open={drawer.action === "create"} title="Store a password" onClose={drawer.close}>
        <SecretForm onSaved={drawer.close} />
      </RouteDrawer>
    </PageFrame>
  );
}
