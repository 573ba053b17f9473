/**
 * One tune file for its dealer: versions (each kept, each with its checksum
 * report), a new version upload, and publishing with price, buyers and
 * protection (PUT /tune-files/{id}/publish and …/unpublish).
 */
import { DownloadOutlined, UploadOutlined } from "@ant-design/icons";
import {
  type HttpError,
  useApiUrl,
  useCustom,
  useCustomMutation,
  useInvalidate,
  useOne,
  useUpdate,
} from "@refinedev/core";
import {
  Alert,
  Button,
  Descriptions,
  Divider,
  Flex,
  Form,
  Input,
  InputNumber,
  Select,
  Skeleton,
  Switch,
  Table,
  Tag,
  Typography,
  Upload,
} from "antd";
import { useState } from "react";
import { apiPaths, apiRoutes } from "../../../contracts/api-paths";
import type { Repository } from "../../../contracts/repositories";
import { currencies, type TuneFile, type TuneFileVersion, tuneFilePublishSchema } from "../../../contracts/tune-files";
import { useRecordMissing } from "../../components/record-not-found";
import { Field, FormError, useContractForm } from "../../components/resource/form";
import { ChecksumTable } from "../../components/tune-inspection";
import { failureText, fieldMessage } from "../../lib/http-errors";
import { centsOf, formatMoney } from "../../lib/money";

function PublishForm({ tune, onDone }: { tune: TuneFile; onDone: () => void }) {
  const form = useContractForm(tuneFilePublishSchema, {
    priceCents: tune.priceCents ?? 0,
    currency: tune.currency ?? "EUR",
    buyerEmails: tune.buyerEmails,
    mayView: tune.mayView,
    mayDownload: tune.mayDownload,
  });
  const { mutate, mutation } = useCustomMutation<TuneFile>();
  const put = (url: string, values: object, message: string) =>
    mutate(
      { url, method: "put", values, successNotification: { type: "success", message }, errorNotification: false },
      { onSuccess: onDone, onError: form.showServerError },
    );
  const submit = form.handleSubmit((values) =>
    put(apiRoutes.tuneFiles.publish(tune.id), values, `Published ${tune.title}`),
  );
  return (
    <Form layout="vertical" onFinish={() => void submit()} aria-label="Publish">
      <FormError message={form.formError} />
      <Flex gap={12} wrap>
        <Field control={form.control} name="priceCents" label="Price" required>
          {(field) => (
            <InputNumber
              id={field.id}
              min={0}
              step={0.01}
              precision={2}
              value={(field.value ?? 0) / 100}
              onChange={(value) => field.onChange(centsOf(Number(value ?? 0)))}
              onBlur={field.onBlur}
              aria-label="Price"
            />
          )}
        </Field>
        <Field control={form.control} name="currency" label="Currency" required>
          {(field) => (
            <Select
              {...field}
              options={currencies.map((c) => ({ value: c, label: c }))}
              style={{ width: 100 }}
              aria-label="Currency"
            />
          )}
        </Field>
      </Flex>
      <Field
        control={form.control}
        name="buyerEmails"
        label="Who may buy"
        help={
          tune.repositoryId
            ? "The repository's members (this list applies in the open storefront)"
            : "Customers' emails; leave empty to sell to anyone"
        }
      >
        {(field) => (
          <Select
            {...field}
            mode="tags"
            tokenSeparators={[",", " "]}
            open={false}
            placeholder="anyone"
            aria-label="Buyer emails"
          />
        )}
      </Field>
      <Flex gap={24} wrap>
        <Field control={form.control} name="mayView" label="Buyers may view the map changes">
          {(field) => <Switch id={field.id} checked={Boolean(field.value)} onChange={field.onChange} />}
        </Field>
        <Field control={form.control} name="mayDownload" label="Buyers may download the file">
          {(field) => <Switch id={field.id} checked={Boolean(field.value)} onChange={field.onChange} />}
        </Field>
      </Flex>
      <Flex gap={8}>
        <Button type="primary" htmlType="submit" loading={mutation.isPending}>
          {tune.published ? "Update listing" : "Publish"}
        </Button>
        {tune.published && (
          <Button
            onClick={() => put(apiRoutes.tuneFiles.unpublish(tune.id), {}, `Unpublished ${tune.title}`)}
            loading={mutation.isPending}
          >
            Unpublish
          </Button>
        )}
      </Flex>
    </Form>
  );
}

const OPEN_STOREFRONT = "open";

/** Which of the dealer's repositories the tune is in: then offered to its members only. */
function RepositoryChoice({ tune, onDone }: { tune: TuneFile; onDone: () => void }) {
  const { query } = useCustom<{ data: Repository[] }>({
    url: apiPaths.repositories.list,
    method: "get",
    config: { query: { dealerUid: tune.dealerUid } },
  });
  const { mutate, mutation } = useUpdate<TuneFile>();
  const [error, setError] = useState<string | null>(null);
  const choose = (value: string) => {
    setError(null);
    const repositoryId = value === OPEN_STOREFRONT ? null : value;
    const name = query.data?.data.data.find((repository) => repository.id === repositoryId)?.name;
    mutate(
      {
        resource: "tune-files",
        id: tune.id,
        values: { repositoryId },
        successNotification: {
          type: "success",
          message: name ? `Now offered to the members of "${name}" only` : "Now in the open storefront",
        },
        errorNotification: false,
      },
      {
        onSuccess: onDone,
        onError: (failure: HttpError) => setError(fieldMessage(failure, "repositoryId") ?? failureText(failure)),
      },
    );
  };
  return (
    <Form layout="vertical">
      <Form.Item
        label="Offered to"
        validateStatus={error ? "error" : undefined}
        help={error ?? "A tune in a repository is offered to its members only, never in the open storefront"}
      >
        <Select
          aria-label="Offered to"
          style={{ maxWidth: 420 }}
          loading={query.isLoading || mutation.isPending}
          value={tune.repositoryId ?? OPEN_STOREFRONT}
          onChange={choose}
          options={[
            { value: OPEN_STOREFRONT, label: "The open storefront (everyone, or the buyers listed below)" },
            ...(query.data?.data.data ?? []).map((repository) => ({
              value: repository.id,
              label: `Members of "${repository.name}"`,
            })),
          ]}
        />
      </Form.Item>
    </Form>
  );
}

function NewVersion({ tune, onDone }: { tune: TuneFile; onDone: () => void }) {
  const [version, setVersion] = useState("");
  const [error, setError] = useState<HttpError | null>(null);
  const { mutate, mutation } = useCustomMutation<TuneFile>();
  const send = (file: File) => {
    const data = new FormData();
    data.append("version", version);
    data.append("file", file);
    setError(null);
    mutate(
      {
        url: apiRoutes.tuneFiles.blob(tune.id),
        method: "post",
        values: data,
        successNotification: { type: "success", message: `Version ${version} saved` },
        errorNotification: false,
      },
      {
        onSuccess: () => {
          setVersion("");
          onDone();
        },
        onError: setError,
      },
    );
    return false;
  };
  return (
    <Flex vertical gap={8}>
      <Flex gap={8}>
        <Input
          placeholder="Version, e.g. 1.1"
          value={version}
          onChange={(event) => setVersion(event.target.value)}
          style={{ maxWidth: 200 }}
          aria-label="New version name"
        />
        <Upload beforeUpload={send} showUploadList={false} disabled={!version.trim()}>
          <Button icon={<UploadOutlined />} disabled={!version.trim()} loading={mutation.isPending}>
            Upload the new image
          </Button>
        </Upload>
      </Flex>
      {error && (
        <Alert
          type="error"
          showIcon
          role="alert"
          message={error.message}
          description={(error as HttpError & { description?: string }).description}
        />
      )}
    </Flex>
  );
}

export function TuneShow({ id }: { id: string }) {
  const apiUrl = useApiUrl();
  const invalidate = useInvalidate();
  const { result: tune, query } = useOne<TuneFile>({ resource: "tune-files", id });
  const refresh = () => void invalidate({ resource: "tune-files", id, invalidates: ["list", "detail"] });
  const missing = useRecordMissing(query.error);
  if (missing) return null;
  if (query.isLoading || !tune) return <Skeleton active />;
  return (
    <Flex vertical gap={16} data-testid="tune-show">
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label="Title">{tune.title}</Descriptions.Item>
        <Descriptions.Item label="Firmware">{tune.firmwareId}</Descriptions.Item>
        {tune.description && <Descriptions.Item label="Description">{tune.description}</Descriptions.Item>}
        <Descriptions.Item label="Listing">
          {tune.published ? <Tag color="green">published</Tag> : <Tag>not published</Tag>}{" "}
          {formatMoney(tune.priceCents, tune.currency)}
        </Descriptions.Item>
        <Descriptions.Item label="Protection">
          {tune.mayView ? "buyers may view changes" : "changes hidden from buyers"};{" "}
          {tune.mayDownload ? "buyers may download" : "no download for buyers"}
        </Descriptions.Item>
      </Descriptions>
      {tune.access.owner && (
        <>
          <Divider orientation="left">Versions</Divider>
          <Table
            size="small"
            rowKey="number"
            pagination={false}
            dataSource={tune.versions ?? []}
            aria-label="Versions"
            expandable={{ expandedRowRender: (v: TuneFileVersion) => <ChecksumTable checksums={v.checksums} /> }}
            columns={[
              {
                dataIndex: "number",
                title: "#",
                render: (n: number) => (n === tune.currentVersion ? <Tag color="blue">{n} current</Tag> : n),
              },
              { dataIndex: "label", title: "Version" },
              {
                dataIndex: "sha256",
                title: "SHA-256",
                render: (v: string) => <Typography.Text code>{v.slice(0, 16)}…</Typography.Text>,
              },
              {
                dataIndex: "checksums",
                title: "Checksums",
                render: (c: TuneFileVersion["checksums"]) =>
                  c.every((r) => r.valid) ? <Tag color="green">valid</Tag> : <Tag color="red">failing</Tag>,
              },
              { dataIndex: "createdAt", title: "Uploaded", render: (v: string) => new Date(v).toLocaleString() },
              {
                key: "download",
                title: "",
                render: (_, v: TuneFileVersion) => (
                  <Button
                    size="small"
                    icon={<DownloadOutlined />}
                    href={`${apiUrl}/tune-files/${tune.id}/download?version=${v.number}`}
                    aria-label={`Download version ${v.label}`}
                  />
                ),
              },
            ]}
          />
          <NewVersion tune={tune} onDone={refresh} />
          <Divider orientation="left">Publishing</Divider>
          <RepositoryChoice tune={tune} onDone={refresh} />
          <PublishForm key={`${tune.updatedAt}`} tune={tune} onDone={refresh} />
        </>
      )}
    </Flex>
  );
}
