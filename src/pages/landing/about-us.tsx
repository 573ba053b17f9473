import { Paragraph } from "../../components/text";
import { LandingSection } from "./section";

export function AboutUsPage() {
  return (
    <LandingSection
      title="About us"
      lead="We are tuners and software engineers who got tired of juggling files, spreadsheets and forum threads."
    >
      <Paragraph>
        Tuning Portal ties together what a tune needs: the firmware identity of your ECU, tune files from dealers you
        trust, custom tuning requests with revisions and logs, safe flashing with your stock file kept, and data logs
        that chart quickly and can be shared.
      </Paragraph>
      <Paragraph>
        Dealers get a queue for their customers' requests and a catalogue they can publish and price; administrators
        keep the firmware catalogue, checksums, patches and logging channels right, because every byte we write ends up
        in an engine.
      </Paragraph>
    </LandingSection>
  );
}
