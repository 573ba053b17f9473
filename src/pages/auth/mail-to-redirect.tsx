import { Button, Flex, Typography } from "antd";
import { useSearchParams } from "react-router";
import { Link } from "../../components/link";
import { AuthCard } from "./auth-card";

const providers = [
  {
    name: "Gmail",
    url: "https://mail.google.com/mail/u/0/#search/in%3Aanywhere+newer_than%3A1h",
    domains: ["gmail.com", "googlemail.com"],
  },
  {
    name: "Outlook",
    url: "https://outlook.live.com/mail/",
    domains: ["outlook.com", "hotmail.com", "live.com", "msn.com"],
  },
  { name: "Yahoo Mail", url: "https://mail.yahoo.com/", domains: ["yahoo.com", "yahoo.co.uk", "ymail.com"] },
  { name: "iCloud Mail", url: "https://www.icloud.com/mail", domains: ["icloud.com", "me.com", "mac.com"] },
];

const purposes: Record<string, string> = {
  "sign-in": "Open it on this device to sign in straight away, or on another device and confirm your address there.",
  reset: "Follow it to choose a new password.",
  verify: "Follow it to confirm your address.",
};

/** After a link was emailed: offers to open the user's mail, their own provider first when we can tell it from the address. */
export function MailToRedirectPage() {
  const [params] = useSearchParams();
  const email = params.get("email");
  const domain = email?.split("@")[1]?.toLowerCase() ?? "";
  const own = providers.find((provider) => provider.domains.includes(domain));
  const others = providers.filter((provider) => provider !== own);
  return (
    <AuthCard title="We emailed you a link">
      <Typography.Paragraph>
        {email ? (
          <>
            We sent a link to <strong>{email}</strong>.
          </>
        ) : (
          "We just sent you a link."
        )}{" "}
        {purposes[params.get("purpose") ?? ""] ?? "Open the email and follow the link."} If it has not arrived within a
        few minutes, look in your spam folder.
      </Typography.Paragraph>
      <Flex vertical gap={8}>
        {own && (
          <Button type="primary" block href={own.url} target="_blank" rel="noreferrer">
            Open {own.name}
          </Button>
        )}
        <Button type={own ? "default" : "primary"} block href="mailto:">
          Open my mail app
        </Button>
        {others.map((provider) => (
          <Button key={provider.name} block href={provider.url} target="_blank" rel="noreferrer">
            Open {provider.name}
          </Button>
        ))}
      </Flex>
      <Typography.Paragraph style={{ marginTop: 16, marginBottom: 0 }}>
        Wrong address or no email? <Link to="/login">Back to sign in</Link>
      </Typography.Paragraph>
    </AuthCard>
  );
}
