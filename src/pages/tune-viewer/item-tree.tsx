import { Badge, Checkbox, Flex, Input, Tree, Typography } from "antd";
import { type Key, memo, useEffect, useMemo, useRef, useState } from "react";
import type { Category, TuneItem } from "../../../contracts/tune-definition";
import { groupItems, searchItems } from "./model";

export interface ItemTreeProps {
  items: readonly TuneItem[];
  categories: readonly Category[];
  changed: ReadonlySet<string>;
  selected: string | undefined;
  onSelect: (id: string) => void;
  /** The pointer rests on an entry: a chance to fetch its values before the click. */
  onHover?: (id: string) => void;
}

/** Above this many rows the tree draws only the rows in view: a definition of thousands of maps would take a second to render in full. */
const VIRTUAL_FROM = 300;
const TREE_HEIGHT = 560;

/** Categories with their items, a search over titles and descriptions, and changed items marked, first, and listable alone. */
export const ItemTree = memo(function ItemTree({
  items,
  categories,
  changed,
  selected,
  onSelect,
  onHover,
}: ItemTreeProps) {
  const [query, setQuery] = useState("");
  const [changedOnly, setChangedOnly] = useState(false);
  const tree = useRef<{ scrollTo: (options: { key: string; align?: "auto" }) => void }>(null);
  const groups = useMemo(() => {
    const found = searchItems(items, query);
    return groupItems(changedOnly ? found.filter((item) => changed.has(item.id)) : found, categories, changed);
  }, [items, categories, changed, query, changedOnly]);
  const treeData = useMemo(
    () =>
      groups.map((group) => ({
        key: `category:${group.key}`,
        title: `${group.name} (${group.items.length})`,
        selectable: false,
        children: group.items.map((item) => ({
          key: item.id,
          isLeaf: true,
          title: (
            <Flex justify="space-between" gap={8} onMouseEnter={onHover && (() => onHover(item.id))}>
              <span>{item.title}</span>
              {changed.has(item.id) && <Badge status="warning" text="changed" />}
            </Flex>
          ),
        })),
      })),
    [groups, changed, onHover],
  );
  const rows = treeData.reduce((n, group) => n + 1 + group.children.length, 0);
  const [expanded, setExpanded] = useState<Key[] | null>(null);
  // Every category open until the user folds one; a new search opens them all again.
  // Memoised: a new array each render would have the tree flatten every row again.
  const allKeys = useMemo(() => treeData.map((group) => group.key), [treeData]);
  const expandedKeys = expanded ?? allKeys;
  const selectedKeys = useMemo(() => (selected ? [selected] : []), [selected]);
  useEffect(() => setExpanded(null), [query, changedOnly]);
  // A map chosen elsewhere (the hex view's link, the URL) is brought into view.
  useEffect(() => {
    if (selected) tree.current?.scrollTo({ key: selected, align: "auto" });
  }, [selected]);

  return (
    <Flex vertical gap={8}>
      <Input.Search
        placeholder="Search maps"
        allowClear
        aria-label="Search maps"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
      <Checkbox checked={changedOnly} onChange={(e) => setChangedOnly(e.target.checked)} disabled={changed.size === 0}>
        Changed from stock only ({changed.size})
      </Checkbox>
      {groups.length === 0 ? (
        <Typography.Text type="secondary">No map matches</Typography.Text>
      ) : (
        <Tree
          ref={tree as never}
          aria-label="Maps"
          blockNode
          treeData={treeData}
          expandedKeys={expandedKeys}
          onExpand={setExpanded}
          selectedKeys={selectedKeys}
          onSelect={(_, { node }) => node.isLeaf && onSelect(String(node.key))}
          height={rows > VIRTUAL_FROM ? TREE_HEIGHT : undefined}
          style={{
            maxHeight: rows > VIRTUAL_FROM ? undefined : "70vh",
            overflow: rows > VIRTUAL_FROM ? undefined : "auto",
          }}
        />
      )}
    </Flex>
  );
});
