import { Button, Dialog, Flex, Grid, Select, Text, TextField } from "@radix-ui/themes";
import { useState } from "react";
import { toast } from "@/ui/toast";
import { BRAND_LABELS, detectCardBrand, EXPIRY_MONTHS, expiryYears, lastFour } from "../utils/cardBrand";
import { useAddPaymentMethod } from "../hooks/usePaymentMethods";

type AddPaymentMethodDialogProps = { open: boolean; onOpenChange(open: boolean): void };

/**
 * Add Payment Method. The card number and CVC stay in this form: only the cardholder, the brand
 * detected from the prefix, the last four digits and the expiry are sent.
 */
export function AddPaymentMethodDialog({ open, onOpenChange }: AddPaymentMethodDialogProps) {
  const { add } = useAddPaymentMethod();
  const [name, setName] = useState("");
  const [number, setNumber] = useState("");
  const [expMonth, setExpMonth] = useState("");
  const [expYear, setExpYear] = useState("");
  const [cvc, setCvc] = useState("");
  const [busy, setBusy] = useState(false);
  const complete = name.trim() !== "" && number.trim() !== "" && expMonth !== "" && expYear !== "" && cvc.trim() !== "";
  const brand = detectCardBrand(number);

  const reset = () => {
    setName("");
    setNumber("");
    setExpMonth("");
    setExpYear("");
    setCvc("");
  };

  const handleAdd = async () => {
    setBusy(true);
    try {
      await add({ name: name.trim(), brand, last4: lastFour(number), expMonth, expYear });
      toast.success("Payment Method Added");
      reset();
      onOpenChange(false);
    } catch (e) {
      toast.failure("Error adding payment method", e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(o) => {
        if (!o) reset();
        onOpenChange(o);
      }}
    >
      <Dialog.Content maxWidth="460px">
        <Dialog.Title>Add Payment Method</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="3">
          Recorded billing profile only: no payment processor is connected and no card is charged. Only the brand, last
          four digits and expiry are saved.
        </Dialog.Description>
        <Flex direction="column" gap="3">
          <label>
            <Text size="2" weight="medium">
              Cardholder Name
            </Text>
            <TextField.Root value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" />
          </label>
          <label>
            <Text size="2" weight="medium">
              Card Number
            </Text>
            <TextField.Root
              value={number}
              maxLength={19}
              inputMode="numeric"
              autoComplete="off"
              onChange={(e) => setNumber(e.target.value)}
            >
              <TextField.Slot side="right">
                <Text size="1" color="gray">
                  {number ? BRAND_LABELS[brand] : ""}
                </Text>
              </TextField.Slot>
            </TextField.Root>
          </label>
          <Grid columns="3" gap="3">
            <Flex direction="column" gap="1">
              <Text size="2" weight="medium">
                Exp Month
              </Text>
              <Select.Root value={expMonth} onValueChange={setExpMonth}>
                <Select.Trigger aria-label="Exp Month" placeholder="MM" />
                <Select.Content>
                  {EXPIRY_MONTHS.map((m) => (
                    <Select.Item key={m} value={m}>
                      {m}
                    </Select.Item>
                  ))}
                </Select.Content>
              </Select.Root>
            </Flex>
            <Flex direction="column" gap="1">
              <Text size="2" weight="medium">
                Exp Year
              </Text>
              <Select.Root value={expYear} onValueChange={setExpYear}>
                <Select.Trigger aria-label="Exp Year" placeholder="YYYY" />
                <Select.Content>
                  {expiryYears().map((y) => (
                    <Select.Item key={y} value={y}>
                      {y}
                    </Select.Item>
                  ))}
                </Select.Content>
              </Select.Root>
            </Flex>
            <label>
              <Text size="2" weight="medium">
                CVC
              </Text>
              <TextField.Root
                value={cvc}
                maxLength={4}
                inputMode="numeric"
                autoComplete="off"
                onChange={(e) => setCvc(e.target.value)}
              />
            </label>
          </Grid>
        </Flex>
        <Flex gap="3" mt="4" justify="end">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Cancel
            </Button>
          </Dialog.Close>
          <Button disabled={!complete} loading={busy} onClick={handleAdd}>
            Add Payment Method
          </Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
