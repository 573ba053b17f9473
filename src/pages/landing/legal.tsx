import { Paragraph } from "../../components/text";
import { LandingSection } from "./section";

export function TermsPage() {
  return (
    <LandingSection title="Terms of use">
      <Paragraph>
        Tune files are licensed to one vehicle: a purchase binds the file to the VIN, ECU and software it was bought
        for. You may not copy, resell or extract a dealer's tune.
      </Paragraph>
      <Paragraph>
        Modifying engine software changes how your vehicle behaves and may affect emissions compliance, road legality,
        insurance and warranty. You are responsible for using modified software only where it is allowed. Flash with a
        stable power supply and never interrupt a flash.
      </Paragraph>
      <Paragraph>
        Payments are processed by our card payment provider. Refunds for tune files are possible until the file has been
        flashed.
      </Paragraph>
    </LandingSection>
  );
}

export function PrivacyPage() {
  return (
    <LandingSection title="Privacy">
      <Paragraph>
        We keep what the service needs: your account (email, name), your vehicles (VIN, ECU identity, stock reads), your
        tune files, flash logs and the data logs you upload. Sign-in is handled by our identity provider; card details
        are handled by our payment provider and never reach our servers.
      </Paragraph>
      <Paragraph>
        Data logs are private until you share them; a share link can be revoked at any time. You can delete your account
        from your profile: we then remove or anonymise your records.
      </Paragraph>
    </LandingSection>
  );
}
