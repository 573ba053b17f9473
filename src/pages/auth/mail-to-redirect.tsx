import { Button, Flex, Typography } from "antd";
import { useSearchParams } from "react-router";
import { Link } from "../../components/link";
import { AuthCard } from "./auth-card";

const providers = [
  { name: "Gmail", url: "https://mail.google.com/" },
  { name: "Outlook", url: "https://outlook.live.com/mail/" },
  { name: "Yahoo Mail", url: "https://mail.yahoo.com/" },
  { name: "iCloud Mail", url: "https://www.icloud.com/mail" },
];

/** After a link was emailed: offers to open the user's mail. */
export function MailToRedirectPage() {
  const [params] = useSearchParams();
  const email = params.get("email");
  return (
    <AuthCard title="We emailed you a link">
      <Typography.Paragraph>
        {email ? (
          <>
            Open the email we sent to <strong>{email}</strong> and follow the link.
          </>
        ) : (
          "Open the email we just sent you and follow the link."
        )}
      </Typography.Paragraph>
      <Flex vertical gap={8}>
        {providers.map((provider) => (
          <a key={provider.name} href={provider.url} target="_blank" rel="noreferrer">
            <Button block>Open {provider.name}</Button>
          </a>
        ))}
        <a href="mailto:">
          <Button block>Open my mail app</Button>
        </a>
      </Flex>
      <Typography.Paragraph style={{ marginTop: 16, marginBottom: 0 }}>
        <Link to="/login">Back to sign in</Link>
      </Typography.Paragraph>
    </AuthCard>
  );
}
