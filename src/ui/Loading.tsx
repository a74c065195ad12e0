import { Flex, Spinner } from "@radix-ui/themes";

type LoadingProps = {
  /** what is loading, for screen readers */
  label?: string;
  size?: "1" | "2" | "3";
  /** only the spinner, where a centred block would not fit (a table cell, a small card) */
  inline?: boolean;
};

/** The one loading state: a spinner, centred in its own padded block unless `inline`. */
export function Loading({ label = "Loading", size = "3", inline = false }: LoadingProps) {
  // a status (announced), named by what is loading: a bare span may not carry a label
  const spinner = <Spinner size={size} role="status" aria-label={label} />;
  return inline ? (
    spinner
  ) : (
    <Flex justify="center" p="6">
      {spinner}
    </Flex>
  );
}
