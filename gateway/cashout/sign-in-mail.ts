/**
 * Where the customer's sign-in code goes: the payout's e-mail. The node gives the checkout this
 * port over its mailer (real SMTP, or the local mail catcher on the embedded default).
 */
export interface SignInCodeMessage {
  to: string;
  code: string;
  expiresAt: string;
  merchantName: string | null;
}

export interface SignInMail {
  /** Throws when the message could not be handed to the mail server. */
  sendCode(message: SignInCodeMessage): Promise<void>;
}
