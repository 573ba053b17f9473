/** What the dealer's card and the admin's review both show of a request: values, files and the logo. */
import { FileImageOutlined, FilePdfOutlined } from "@ant-design/icons";
import { Space, Tag, Typography } from "antd";
import { apiRoutes } from "../../../contracts/api-paths";
import {
  BUSINESS_IDENTITY_FIELDS,
  BUSINESS_IDENTITY_LABELS,
  type ProfileChangeFile,
  type ProfileChangeRequest,
} from "../../../contracts/profile-change-requests";
import { API_PREFIX } from "../../providers/data-provider";

/** The approved logo's public address; its hash in the query makes a new logo a new URL. */
export const dealerLogoUrl = (dealerId: string, sha256: string) =>
  `${API_PREFIX}/${apiRoutes.dealers.logo(dealerId)}?v=${sha256.slice(0, 16)}`;

/** A request's file, opened by the browser with the session cookie (dealer and admins only). */
export const requestFileUrl = (request: ProfileChangeRequest, file: ProfileChangeFile) =>
  `${API_PREFIX}/${apiRoutes.users.profileChangeFile(request.userUid, file.id)}`;

export const shown = (value: string | null | undefined) =>
  value === null || value === undefined || value === "" ? "—" : value;

/** The fields a request changes, in the profile's order. */
export const changedFields = (request: ProfileChangeRequest) =>
  BUSINESS_IDENTITY_FIELDS.filter((field) => field in request.changes);

export function RequestFiles({ request }: { request: ProfileChangeRequest }) {
  return (
    <Space direction="vertical" size={2}>
      {request.documents.map((file) => (
        <Typography.Link key={file.id} href={requestFileUrl(request, file)} target="_blank" rel="noopener">
          <Space size={4}>
            {file.contentType === "application/pdf" ? <FilePdfOutlined /> : <FileImageOutlined />}
            {file.name}
            <Typography.Text type="secondary">({Math.max(1, Math.round(file.size / 1024))} KB)</Typography.Text>
          </Space>
        </Typography.Link>
      ))}
    </Space>
  );
}

export function RequestSummary({ request }: { request: ProfileChangeRequest }) {
  return (
    <Space direction="vertical" size={4}>
      {changedFields(request).map((field) => (
        <span key={field}>
          <Tag>{BUSINESS_IDENTITY_LABELS[field]}</Tag>
          {shown(request.changes[field])}
        </span>
      ))}
      {request.logo && (
        <span>
          <Tag>{BUSINESS_IDENTITY_LABELS.logo}</Tag>
          <img
            src={requestFileUrl(request, request.logo)}
            alt="Requested logo"
            style={{ maxHeight: 48, verticalAlign: "middle" }}
          />
        </span>
      )}
    </Space>
  );
}
