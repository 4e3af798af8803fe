// The list's free-text search (`q`), a Radix text field with the magnifier. In a module of its
// own so a list that searches with a plain input does not load the Radix text field.
import { TextField } from "@radix-ui/themes";
import { BiSearch } from "~/icons";
import { FilterField } from "./fields";

export function SearchField({
  id,
  label,
  defaultValue,
  placeholder,
  maxLength,
  className,
}: {
  id: string;
  label: string;
  defaultValue: string;
  placeholder: string;
  maxLength?: number;
  className?: string;
}) {
  return (
    <FilterField id={id} label={label} className={className}>
      <TextField.Root id={id} name="q" type="search" size="3" defaultValue={defaultValue} placeholder={placeholder} maxLength={maxLength}>
        <TextField.Slot>
          <BiSearch aria-hidden="true" />
        </TextField.Slot>
      </TextField.Root>
    </FilterField>
  );
}
