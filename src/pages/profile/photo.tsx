import { UploadOutlined, UserOutlined } from "@ant-design/icons";
import { useCreate } from "@refinedev/core";
import { Alert, Avatar, Button, Flex, Typography, Upload } from "antd";
import type { User } from "firebase/auth";
import { useState } from "react";
import { apiRoutes } from "../../../contracts/api-paths";
import { PROFILE_PICTURE_MAX_BYTES, PROFILE_PICTURE_TYPES } from "../../../contracts/public-site";

/** The profile picture: sent to our server, which resizes it and points the identity photoURL at it. */
export function ProfilePhoto({ user }: { user: User }) {
  const { mutate, mutation } = useCreate<{ photoURL: string }>();
  const [photoURL, setPhotoURL] = useState(user.photoURL);
  const [error, setError] = useState<string | null>(null);

  const upload = (file: File) => {
    setError(null);
    // Checked here for a quick answer; the server checks the bytes again.
    if (!(PROFILE_PICTURE_TYPES as readonly string[]).includes(file.type))
      return setError("Choose a JPEG, PNG, WebP or GIF image.");
    if (file.size > PROFILE_PICTURE_MAX_BYTES)
      return setError(`The image is larger than ${PROFILE_PICTURE_MAX_BYTES / 1024 / 1024} MB.`);
    mutate(
      {
        resource: apiRoutes.users.profilePicture(user.uid),
        values: { file },
        meta: { multipart: true },
        successNotification: { type: "success", message: "Picture updated" },
        errorNotification: false,
      },
      {
        onSuccess: async ({ data }) => {
          setPhotoURL(data.photoURL);
          // The header's avatar comes from the ID token: fetch one that carries the new picture.
          await user.reload();
          await user.getIdToken(true);
        },
        onError: (caught) => setError((caught as { description?: string }).description ?? caught.message),
      },
    );
  };

  return (
    <Flex gap={16} align="center" wrap>
      <Avatar
        size={96}
        src={photoURL ?? undefined}
        icon={<UserOutlined />}
        alt={photoURL ? "Your profile picture" : undefined}
      />
      <Flex vertical gap={8}>
        <Upload
          accept={PROFILE_PICTURE_TYPES.join(",")}
          showUploadList={false}
          beforeUpload={(file) => (upload(file), false)}
        >
          <Button icon={<UploadOutlined />} loading={mutation.isPending}>
            Upload a picture
          </Button>
        </Upload>
        <Typography.Text type="secondary">
          JPEG, PNG, WebP or GIF, up to 5 MB. It is cropped to a square.
        </Typography.Text>
        {error && <Alert type="error" showIcon message={error} role="alert" />}
      </Flex>
    </Flex>
  );
}
