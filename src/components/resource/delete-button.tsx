/**
 * Delete with a confirmation; a 409 (still referenced) comes back as the
 * notification naming what refers to the record, and nothing is removed.
 */
import { DeleteOutlined } from "@ant-design/icons";
import { useDelete } from "@refinedev/core";
import { Button, Popconfirm } from "antd";

export function ConfirmDelete({
  resource,
  apiPath,
  id,
  name,
  onDeleted,
}: {
  resource: string;
  apiPath: string;
  id: string;
  name: string;
  onDeleted?: () => void;
}) {
  const { mutate, mutation } = useDelete();
  return (
    <Popconfirm
      title={`Delete ${name}?`}
      description="This cannot be undone."
      okText="Delete"
      okButtonProps={{ danger: true }}
      onConfirm={() =>
        mutate(
          {
            resource,
            id,
            meta: { apiPath },
            successNotification: { type: "success", message: `Deleted ${name}` },
            errorNotification: (error) => ({
              type: "error",
              message: error?.message ?? "Not deleted",
              description: (error as { description?: string })?.description,
            }),
          },
          { onSuccess: () => onDeleted?.() },
        )
      }
    >
      <Button danger size="small" icon={<DeleteOutlined />} loading={mutation.isPending} aria-label={`Delete ${name}`}>
        Delete
      </Button>
    </Popconfirm>
  );
}
