import { Badge, Checkbox, Flex, Input, Menu, Typography } from "antd";
import { useMemo, useState } from "react";
import type { Category, TuneItem } from "../../../contracts/tune-definition";
import { groupItems, searchItems } from "./model";

export interface ItemTreeProps {
  items: readonly TuneItem[];
  categories: readonly Category[];
  changed: ReadonlySet<string>;
  selected: string | undefined;
  onSelect: (id: string) => void;
}

/** Categories with their items, a search over titles and descriptions, and changed items marked, first, and listable alone. */
export function ItemTree({ items, categories, changed, selected, onSelect }: ItemTreeProps) {
  const [query, setQuery] = useState("");
  const [changedOnly, setChangedOnly] = useState(false);
  const groups = useMemo(() => {
    const found = searchItems(items, query);
    return groupItems(changedOnly ? found.filter((item) => changed.has(item.id)) : found, categories, changed);
  }, [items, categories, changed, query, changedOnly]);
  const menuItems = useMemo(
    () =>
      groups.map((group) => ({
        key: `category:${group.key}`,
        label: `${group.name} (${group.items.length})`,
        children: group.items.map((item) => ({
          key: item.id,
          label: (
            <Flex justify="space-between" gap={8}>
              <span>{item.title}</span>
              {changed.has(item.id) && <Badge status="warning" text="changed" />}
            </Flex>
          ),
        })),
      })),
    [groups, changed],
  );
  return (
    <Flex vertical gap={8}>
      <Input.Search placeholder="Search maps" allowClear aria-label="Search maps" value={query} onChange={(e) => setQuery(e.target.value)} />
      <Checkbox checked={changedOnly} onChange={(e) => setChangedOnly(e.target.checked)} disabled={changed.size === 0}>
        Changed from stock only ({changed.size})
      </Checkbox>
      {groups.length === 0 ? (
        <Typography.Text type="secondary">No map matches</Typography.Text>
      ) : (
        <Menu
          mode="inline"
          aria-label="Maps"
          items={menuItems}
          selectedKeys={selected ? [selected] : []}
          defaultOpenKeys={groups.map((group) => `category:${group.key}`)}
          onClick={({ key }) => onSelect(key)}
          style={{ borderInlineEnd: 0, maxHeight: "70vh", overflow: "auto" }}
        />
      )}
    </Flex>
  );
}
