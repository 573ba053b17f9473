import { Collapse } from "antd";
import { LandingSection } from "./section";

const faqs = [
  [
    "Which cars are supported?",
    "Support depends on the ECU software version, not only the model. Connect your car with the app: it reads the ECU and tells you at once whether that software is supported. If it is not, you can ask us to add it.",
  ],
  [
    "What do I need to flash a tune?",
    "The app on your phone, a supported OBD adapter, a healthy battery (use a charger during long flashes) and a tune for your vehicle's firmware.",
  ],
  [
    "Can I go back to stock?",
    "Yes. The app reads and keeps your original software before the first flash; flashing it back is a first-class action.",
  ],
  [
    "What happens if a flash fails?",
    "The ECU stays in its bootloader and the app can flash again, or flash your stock file. Every step is recorded so a dealer can see what happened.",
  ],
  [
    "Which log formats can I upload?",
    "CSV logs from MHD, bootmod3, COBB Accessport, HP Tuners, RomRaider, OBDLink, JB4, ME7Logger, VCDS and most other loggers; the format is recognised from the content.",
  ],
  [
    "Is tuning legal?",
    "Modifying engine software can affect emissions compliance, insurance and warranty. Many tunes are for off-road or competition use only: check the rules where you drive.",
  ],
];

export function FaqsPage() {
  return (
    <LandingSection title="Frequently asked questions">
      <Collapse
        items={faqs.map(([question, answer], index) => ({
          key: String(index),
          label: question,
          children: <p>{answer}</p>,
        }))}
      />
    </LandingSection>
  );
}
