import { EmptyState, PageFrame } from "../../components/page-frame";

export function MyTunesList() {
  return (
    <PageFrame title="My tunes" subtitle="Tune files you own, per vehicle">
      <EmptyState title="No tune files yet">
        Tunes you buy from a dealer, custom tunes you request and the files baked for your vehicles are listed here per vehicle, with their version, checksum report and flash history. Dealers also manage their catalogue here: upload, publish and price.
      </EmptyState>
    </PageFrame>
  );
}
