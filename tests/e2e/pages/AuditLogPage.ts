/** /audit-log: the organisation's live audit log (audit.view), its filters, Verify chain and Export CSV. */
import type { Locator, Page } from "@playwright/test";

export class AuditLogPage {
  readonly heading: Locator;
  readonly table: Locator;
  readonly rows: Locator;
  readonly verifyButton: Locator;
  readonly verifyResult: Locator;
  readonly accessRestricted: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { name: "Audit Log", level: 1 });
    this.table = page.getByTestId("audit.table");
    this.rows = page.getByTestId("audit.row");
    this.verifyButton = page.getByRole("button", { name: "Verify chain" });
    this.verifyResult = page.getByTestId("audit.verifyResult");
    this.accessRestricted = page.getByTestId("admin.accessRestricted");
  }

  async goto() {
    await this.page.goto("/audit-log");
  }

  /** Rows whose action label is exactly `action` ("Export", "Voter created"), by the actor named. */
  entries(action: string, actor: string): Locator {
    return this.rows
      .filter({ has: this.page.getByTestId("audit.action").getByText(action, { exact: true }) })
      .filter({ has: this.page.getByTestId("audit.actor").getByText(actor, { exact: true }) });
  }

  async verifyChain() {
    await this.verifyButton.click();
  }
}
