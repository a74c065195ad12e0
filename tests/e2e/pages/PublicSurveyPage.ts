/** A survey as a respondent answers it, signed out: its hosted page (/s/…) or the same page embedded in another site's iframe. */
import type { FrameLocator, Locator, Page } from "@playwright/test";

export class PublicSurveyPage {
  readonly submitButton: Locator;
  readonly nextButton: Locator;
  readonly progress: Locator;
  readonly success: Locator;
  /** the form-level message when required answers are missing */
  readonly missingRequired: Locator;
  /** the message under each required question left empty */
  readonly fieldRequired: Locator;
  readonly slider: Locator;
  readonly email: Locator;

  /** `root`: the respondent's page, or the frame the snippet embeds it in (`page.frameLocator("iframe")`). */
  constructor(readonly root: Page | FrameLocator) {
    this.submitButton = root.getByTestId("survey.submit");
    this.nextButton = root.getByTestId("survey.next");
    this.progress = root.getByTestId("survey.progress");
    this.success = root.getByTestId("survey.success");
    this.missingRequired = root.getByText("Please fill in all required fields");
    this.fieldRequired = root.getByText("This field is required");
    this.slider = root.getByRole("slider");
    this.email = root.getByLabel("Your email");
  }

  heading(name: string): Locator {
    return this.root.getByRole("heading", { name });
  }

  /** A rating question's star button ("4 stars"). */
  stars(n: number): Locator {
    return this.root.getByRole("button", { name: `${n} stars` });
  }

  radio(name: string): Locator {
    return this.root.getByRole("radio", { name });
  }

  checkbox(name: string): Locator {
    return this.root.getByRole("checkbox", { name });
  }

  async next() {
    await this.nextButton.click();
  }

  async submit() {
    await this.submitButton.click();
  }
}
