import { EmptyState, PageFrame } from "../../components/page-frame";

export function TuneViewerPage() {
  return (
    <PageFrame title="Tune viewer" subtitle="Browse, compare and edit the maps of a tune file">
      <EmptyState title="Open a tune file to see its maps">
        Pick one of your tune files, or a local image, to see its maps by category as tables and charts, its checksum report, a hex
        view of the whole image and a comparison with the stock file.
      </EmptyState>
    </PageFrame>
  );
}
